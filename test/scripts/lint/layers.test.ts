// The layering rules hold for this repository, and the checker really catches each kind of violation
// (run over small fixture trees written here, and over a copy of this repository with one bad import
// planted in it).
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { documentedLayerTable, renderLayerTable } from "../../../scripts/lint/layer-docs.ts";
import { LAYERS } from "../../../scripts/lint/layer-table.ts";
import { importsOf, layerViolations } from "../../../scripts/lint/layers.ts";
import { ROOT } from "../../helpers/cli.ts";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fixture tree: path → source text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "i-layers-"));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The table without its tolerated edges, for fixture trees (which lack the files those edges name). */
const STRICT = { layers: LAYERS, pending: {} };

const OK = {
  "src/contract/history.ts": 'import { z } from "zod";\nexport const H = z.array(z.unknown());\n',
  "workers/sdk/serve.ts": 'import { H } from "../../src/contract/history.ts";\nexport const s = H;\n',
  "workers/budget/index.ts":
    'import { s } from "../sdk/serve.ts";\nimport "./compute.ts";\nexport const b = s;\n',
  "workers/budget/compute.ts": "export const c = 1;\n",
  "workers/registry.ts": 'export const load = () => import("./budget/index.ts");\n',
  "src/cli/commands/worker.ts": 'const r = () => import("../../../workers/registry.ts");\nexport { r };\n',
  "src/agent/loop.ts": 'import type { H } from "../contract/history.ts";\nexport type L = typeof H;\n',
};

describe("import layering", () => {
  test("this repository follows every rule", () => {
    expect(layerViolations(ROOT)).toEqual([]);
  });

  test("a tree that follows the rules passes", () => {
    expect(layerViolations(tree(OK), STRICT)).toEqual([]);
  });

  test("each broken rule is reported with the file, the import and the rule", () => {
    const bad = tree({
      ...OK,
      "workers/budget/index.ts": 'import { x } from "../../src/agent/loop.ts";\nexport const b = x;\n',
      "workers/sdk/serve.ts": 'import type { L } from "../../src/agent/loop.ts";\nexport type S = L;\n',
      "src/contract/history.ts": 'export { s } from "../../workers/sdk/serve.ts";\n',
      "src/agent/loop.ts": 'const w = await import("../../workers/budget/index.ts");\nexport { w };\n',
      "examples/mine/main.ts": 'import { s } from "../../workers/sdk/serve.ts";\nconsole.log(s);\n',
    });
    const problems = layerViolations(bad, STRICT);
    const expected = [
      "workers/budget/index.ts imports src/agent/loop.ts: workers/* may import only its own files and src/contract, src/lib, workers/sdk (scripts/lint/layer-table.ts)",
      "workers/sdk/serve.ts imports src/agent/loop.ts: workers/sdk may import only its own files and src/contract, src/lib (scripts/lint/layer-table.ts)",
      "src/contract/history.ts imports workers/sdk/serve.ts: src/contract imports only its own files (scripts/lint/layer-table.ts)",
      "src/agent/loop.ts imports workers/budget/index.ts: src/ reaches workers/ only through src/cli/commands/worker.ts → workers/registry.ts",
      "examples/mine/main.ts imports workers/sdk/serve.ts: an example imports the SDK by package name, never a path into the repository",
    ];
    for (const line of expected) expect(problems).toContain(line);
  });

  test("a direction the table does not allow fails, even between two folders of src/", () => {
    const bad = tree({
      ...OK,
      "src/session/session.ts":
        'import type { H } from "../contract/history.ts";\nexport type S = typeof H;\n',
      "src/console/app.ts": 'import type { S } from "../session/session.ts";\nexport type A = S;\n',
      "src/lib/glob.ts": 'import type { L } from "../agent/loop.ts";\nexport type G = L;\n',
    });
    expect(layerViolations(bad, STRICT)).toEqual([
      "src/console/app.ts imports src/session/session.ts: src/console may import only its own files and src/contract, src/lib, src/terminal, src/agent/agent-session.ts (scripts/lint/layer-table.ts)",
      "src/lib/glob.ts imports src/agent/loop.ts: src/lib may import only its own files and src/contract (scripts/lint/layer-table.ts)",
    ]);
  });

  test("a row may name one file: the console may import the facade and nothing else of src/agent", () => {
    const facade = tree({
      ...OK,
      "src/agent/agent-session.ts": 'import type { L } from "./loop.ts";\nexport type F = L;\n',
      "src/console/app.ts": 'import type { F } from "../agent/agent-session.ts";\nexport type A = F;\n',
    });
    expect(layerViolations(facade, STRICT)).toEqual([]);
  });

  test("a planted forbidden import in a copy of this repository is the one problem found", () => {
    const copy = mkdtempSync(join(tmpdir(), "i-layers-repo-"));
    made.push(copy);
    for (const d of ["src", "workers", "examples"])
      cpSync(join(ROOT, d), join(copy, d), {
        recursive: true,
        filter: (p) => !p.includes("node_modules") && !p.includes("/target"),
      });
    expect(layerViolations(copy)).toEqual([]);
    // The console may still import session.ts (a tolerated edge), but no other file of src/session.
    writeFileSync(join(copy, "src/console/planted.ts"), 'export * from "../session/store.ts";\n');
    writeFileSync(
      join(copy, "workers/memory/planted.ts"),
      'export { setupAgent } from "../../src/agent/setup.ts";\n',
    );
    expect(layerViolations(copy)).toEqual([
      `src/console/planted.ts imports src/session/store.ts: src/console may import only its own files and ${LAYERS["src/console"]?.may.join(", ")} (scripts/lint/layer-table.ts)`,
      `workers/memory/planted.ts imports src/agent/setup.ts: workers/* may import only its own files and ${LAYERS["workers/*"]?.may.join(", ")} (scripts/lint/layer-table.ts)`,
    ]);
  });

  test("a folder without a row, and a tolerated edge nothing uses any more, are reported", () => {
    const odd = tree({
      ...OK,
      "src/gadgets/x.ts": 'import { H } from "../contract/history.ts";\nexport const x = H;\n',
    });
    expect(layerViolations(odd, STRICT)).toEqual([
      "src/gadgets has no row in the layer table: add one to scripts/lint/layer-table.ts saying what it may import",
    ]);
    const withConsole = tree({ ...OK, "src/console/app.ts": "export const a = 1;\n" });
    const pending = { "src/console": ["src/session/session.ts"] };
    expect(layerViolations(withConsole, { layers: LAYERS, pending })).toEqual([
      "layer table: PENDING lets src/console import src/session/session.ts, which nothing there imports any more: delete that entry",
    ]);
    const using = tree({
      ...OK,
      "src/session/session.ts": "export const s = 1;\n",
      "src/console/app.ts": 'export { s } from "../session/session.ts";\n',
    });
    expect(layerViolations(using, { layers: LAYERS, pending })).toEqual([]);
  });

  test("docs/architecture.md prints the table the lint enforces", () => {
    expect(documentedLayerTable(ROOT)).toBe(renderLayerTable());
  });

  test("folder and file cycles are reported", () => {
    const cyclic = tree({
      ...OK,
      "src/config/load.ts": 'import { p } from "../manifest/profiles.ts";\nexport const l = p;\n',
      "src/manifest/profiles.ts": 'import type { l } from "../config/load.ts";\nexport const p = 1;\n',
      "src/cli/main.ts": 'export const main = () => import("./commands/start.ts");\n',
      "src/cli/commands/start.ts": 'export const again = () => import("../main.ts");\n',
    });
    const problems = layerViolations(cyclic, STRICT);
    expect(problems).toContain("folder cycle: src/config ↔ src/manifest");
    expect(problems).toContain("file cycle: src/cli/commands/start.ts ↔ src/cli/main.ts");
  });

  test("static, dynamic, type-only, side-effect and re-export imports are all seen", () => {
    const text = [
      'import { a } from "./a.ts";',
      'import type { B } from "./b.ts";',
      'import "./c.ts";',
      'export * from "./d.ts";',
      'const e = await import("./e.ts");',
      "import {\n  f,\n  g,\n} from './f.ts';",
    ].join("\n");
    expect(importsOf(text).sort()).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts"]);
  });
});
