// Every top folder of src/ and workers/ says in a README.md what lives there and what it may import, and
// the "May import" line is the layer table's row (scripts/lint/layer-table.ts), so the two cannot drift.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LAYERS } from "../../scripts/lint/layer-table.ts";
import { ROOT } from "../helpers/cli.ts";
import { brokenLinks } from "../helpers/markdown-links.ts";

const FOLDERS = ["src", "workers"].flatMap((top) =>
  readdirSync(join(ROOT, top))
    .filter((n) => statSync(join(ROOT, top, n)).isDirectory())
    .map((n) => `${top}/${n}`),
);

/** The line the table gives a folder: its own row, else the row every module of workers/ shares. */
function mayImportLine(folder: string): string {
  const row = LAYERS[folder] ?? (folder.startsWith("workers/") ? LAYERS["workers/*"] : undefined);
  if (!row) throw new Error(`${folder} has no row in the layer table`);
  return `**May import:** ${["its own files", ...row.may.map((m) => `\`${m}\``)].join(", ")}.`;
}

describe("folder READMEs", () => {
  test("there is a folder for each kind of row the table has", () => {
    expect(FOLDERS).toContain("src/contract");
    expect(FOLDERS).toContain("workers/sdk");
    expect(FOLDERS.length).toBeGreaterThan(20);
  });

  test.each(FOLDERS)("%s/README.md says what it may import, as the layer table does", (folder) => {
    const file = join(ROOT, folder, "README.md");
    const line = mayImportLine(folder);
    if (!existsSync(file)) {
      expect(
        `${folder}/README.md is missing: write a few lines on what lives there, and the line ${line}`,
      ).toBe("");
      return;
    }
    const problems = readFileSync(file, "utf8").includes(line)
      ? []
      : [`${folder}/README.md lacks the line ${line}`];
    expect([...problems, ...brokenLinks(ROOT, `${folder}/README.md`)]).toEqual([]);
  });
});
