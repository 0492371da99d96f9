// The README is the user's page and short; docs/ holds the reference. Every relative link among them (file
// and #anchor) must land, so moving text between pages cannot leave a reader at a dead link.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.ts";
import { brokenLinks, headingAnchors, relativeLinks } from "../helpers/markdown-links.ts";

const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((n) => n.endsWith(".md"))
  .map((n) => `docs/${n}`);

describe("README and docs/", () => {
  test("the README is at most 420 lines", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(420);
  });

  test("the README links every page of docs/", () => {
    const links = new Set(
      relativeLinks(readFileSync(join(ROOT, "README.md"), "utf8")).map((l) => l.split("#")[0]),
    );
    for (const d of DOCS) expect(links).toContain(d);
  });

  test.each(["README.md", ...DOCS])("every relative link of %s resolves, file and anchor", (file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });

  test("the checker finds a missing file, a missing anchor and an anchor into a non-markdown file", () => {
    const text = [
      "# Top",
      "## Print mode and `--json` events",
      "[ok](#print-mode-and---json-events) [ok](docs/architecture.md#layers) [ok](schemas/events.json)",
      "[bad](docs/nope.md) [bad](#nowhere) [bad](schemas/events.json#x) [url](https://example.com/x)",
      "```",
      "[in code](missing.md)",
      "```",
    ].join("\n");
    const root = mkdtempSync(join(tmpdir(), "i-links-"));
    try {
      mkdirSync(join(root, "docs"));
      mkdirSync(join(root, "schemas"));
      writeFileSync(join(root, "README.md"), text);
      writeFileSync(join(root, "docs", "architecture.md"), "# Architecture\n\n## Layers\n");
      writeFileSync(join(root, "schemas", "events.json"), "{}");
      expect(brokenLinks(root, "README.md")).toEqual([
        "README.md: link docs/nope.md: docs/nope.md does not exist",
        "README.md: link #nowhere: README.md has no heading with the anchor #nowhere",
        "README.md: link schemas/events.json#x: an anchor into schemas/events.json, which is not a markdown file",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    expect(headingAnchors(text)).toEqual(new Set(["top", "print-mode-and---json-events"]));
    expect(relativeLinks(text)).toEqual([
      "#print-mode-and---json-events",
      "docs/architecture.md#layers",
      "schemas/events.json",
      "docs/nope.md",
      "#nowhere",
      "schemas/events.json#x",
    ]);
  });
});
