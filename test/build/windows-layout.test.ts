// The windows-x64 archive's layout, whatever the host: i.exe and the Windows launchers (never start.sh
// or the Linux/macOS desktop files), README, docs/, LICENSE and every JSON Schema, in a .zip named i-windows-x64.
// (The executable itself is run under Wine by .ci/run: scripts/ci/wine-smoke.sh.)
import { expect, test } from "bun:test";
import { join } from "node:path";
import { archiveExt, exeSuffix, platformLayout, TARGETS, walk } from "../../scripts/release/layout.ts";
import { ROOT } from "../helpers/cli.ts";

test("windows-x64: i.exe, start.cmd and i-console.cmd, docs and schemas, as a .zip", () => {
  expect(TARGETS).toContain("windows-x64");
  expect(exeSuffix("windows-x64")).toBe(".exe");
  expect(archiveExt("windows-x64")).toBe(".zip");
  const binary = join(ROOT, "package.json"); // any file: the layout only names where it goes
  const layout = platformLayout(ROOT, "windows-x64", binary);
  expect(layout.name).toBe("i-windows-x64");
  const byRel = new Map(layout.members.map((m) => [m.rel, m]));
  expect(byRel.get("i.exe")).toEqual({ rel: "i.exe", mode: 0o755, from: binary });
  expect(byRel.get("start.cmd")?.from).toBe(join(ROOT, "scripts", "start.cmd"));
  expect(byRel.get("i-console.cmd")?.from).toBe(join(ROOT, "scripts", "desktop", "i-console.cmd"));
  for (const rel of ["README.md", "LICENSE"]) expect(byRel.get(rel)?.mode).toBe(0o644);
  const schemas = walk(join(ROOT, "schemas")).map((r) => `schemas/${r}`);
  expect(schemas.length).toBeGreaterThan(0);
  // The README links into docs/: the pages travel with it.
  const docs = walk(join(ROOT, "docs")).map((r) => `docs/${r}`);
  expect(docs).toContain("docs/reliability.md");
  expect(layout.members.map((m) => m.rel).sort()).toEqual(
    ["i.exe", "start.cmd", "i-console.cmd", "README.md", "LICENSE", ...docs, ...schemas].sort(),
  );
  for (const rel of ["i", "start.sh", "i-console.desktop", "i-console.command"])
    expect(byRel.has(rel)).toBe(false);
});
