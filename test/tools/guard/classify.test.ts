import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyWith, type GuardPlace } from "../../../src/tools/guard/classify.ts";
import { bashParser } from "../../../src/tools/guard/parser.ts";
import { DESTRUCTIVE, EVERYDAY, SANDBOX_ONLY } from "./corpus.ts";
import { guardPlace } from "./guard-place.ts";

let root: string;
let place: GuardPlace;
let parser: Awaited<ReturnType<typeof bashParser>>;

beforeAll(async () => {
  ({ root, place } = guardPlace("i-guard-"));
  parser = await bashParser();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fill = (c: string) =>
  c
    .replaceAll("{V_REL}", join(root, "victim").slice(1))
    .replaceAll("{V}", join(root, "victim"))
    .replaceAll("{N}", "1");

describe("the destructive corpus", () => {
  test("has at least 60 commands, every one flagged with a reason", () => {
    expect(DESTRUCTIVE.length).toBeGreaterThanOrEqual(60);
    const verdicts = DESTRUCTIVE.map((c) => [c, classifyWith(parser, fill(c), place)] as const);
    const missed = verdicts.filter(([c, v]) => v.kind !== "flagged" && !SANDBOX_ONLY.includes(c));
    expect(missed).toEqual([]);
    // What only the running shell knows is left to the sandbox, said so.
    for (const c of SANDBOX_ONLY)
      expect(classifyWith(parser, fill(c), place)).toMatchObject({ kind: "unknown" });
  });
  test("a flagged git command names the repository its state is recorded for", () => {
    const v = classifyWith(parser, "git reset --hard", place);
    expect(v).toMatchObject({ kind: "flagged", git: place.workspace });
    expect(v.kind === "flagged" && v.reason).toContain("tracked.txt");
  });
});

describe("the everyday corpus", () => {
  test("at least 100 commands, at most one false positive", () => {
    expect(EVERYDAY.length).toBeGreaterThanOrEqual(100);
    const env = { ...place, temp: [...place.temp, tmpdir()] };
    const flagged = EVERYDAY.filter((c) => classifyWith(parser, c, env).kind === "flagged");
    expect(flagged.length).toBeLessThanOrEqual(1);
  });
});

describe("bad input", () => {
  test("an unparsable command is unknown (the sandbox judges it), not ok", () => {
    expect(classifyWith(parser, "ls (((", place)).toMatchObject({ kind: "unknown" });
    expect(classifyWith(parser, "echo 'unterminated", place)).toMatchObject({ kind: "unknown" });
  });
  test("a 100 KB command is read whole, and a deletion at its end is still seen", () => {
    const long = `${"echo ok; ".repeat(12_000)}rm -rf ${join(root, "victim")}`;
    expect(long.length).toBeGreaterThan(100_000);
    expect(classifyWith(parser, long, place).kind).toBe("flagged");
    expect(classifyWith(parser, `echo ${"a".repeat(100_000)}`, place).kind).toBe("ok");
  });
  test("deeply nested $(…) does not overflow: flagged when readable, else unknown", () => {
    const nest = (n: number, inner: string) => "$(echo ".repeat(n) + inner + ")".repeat(n);
    expect(classifyWith(parser, `echo ${nest(50, `$(rm -rf ${join(root, "victim")})`)}`, place).kind).toBe(
      "flagged",
    );
    expect(classifyWith(parser, `echo ${nest(3000, "x")}`, place).kind).not.toBe("ok");
  });
  test("a here-doc that only mentions rm is data", () => {
    expect(classifyWith(parser, "cat <<'EOF' > notes.txt\nrm -rf /\nEOF", place).kind).toBe("ok");
    expect(classifyWith(parser, "cat <<EOF\nrm -rf ~ $(date)\nEOF", place).kind).toBe("ok");
  });
  test("paths with spaces and unicode are resolved, inside and outside", () => {
    mkdirSync(join(root, "victim", "mes données"), { recursive: true });
    expect(classifyWith(parser, `rm -rf '${join(root, "victim", "mes données")}'`, place)).toMatchObject({
      kind: "flagged",
    });
    expect(classifyWith(parser, "rm -rf 'mes données/cache é'", place).kind).toBe("ok");
  });
  test("a symlink inside the workspace that leads outside is followed for writes", () => {
    const { symlinkSync } = require("node:fs") as typeof import("node:fs");
    symlinkSync(join(root, "victim"), join(place.workspace, "link"));
    expect(classifyWith(parser, "echo x > link/keep/a.txt", place).kind).toBe("flagged");
    expect(classifyWith(parser, "rm link", place).kind).toBe("ok");
    expect(classifyWith(parser, "rm -rf link/", place).kind).toBe("flagged");
  });
});
