// The layering rules hold for this repository, and the checker really catches each kind of violation
// (run over small fixture trees written here).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
    expect(layerViolations(tree(OK))).toEqual([]);
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
    const problems = layerViolations(bad);
    const expected = [
      "workers/budget/index.ts imports src/agent/loop.ts: a worker imports only its own folder, the SDK, the contract and the shared lib",
      "workers/sdk/serve.ts imports src/agent/loop.ts: the SDK imports only itself, the contract and the shared lib",
      "src/contract/history.ts imports workers/sdk/serve.ts: the contract imports only itself",
      "src/agent/loop.ts imports workers/budget/index.ts: src/ reaches workers/ only through src/cli/commands/worker.ts → workers/registry.ts",
      "examples/mine/main.ts imports workers/sdk/serve.ts: an example imports the SDK by package name, never a path into the repository",
    ];
    for (const line of expected) expect(problems).toContain(line);
  });

  test("folder and file cycles are reported", () => {
    const cyclic = tree({
      ...OK,
      "src/config/load.ts": 'import { p } from "../manifest/profiles.ts";\nexport const l = p;\n',
      "src/manifest/profiles.ts": 'import type { l } from "../config/load.ts";\nexport const p = 1;\n',
      "src/cli/main.ts": 'export const main = () => import("./commands/start.ts");\n',
      "src/cli/commands/start.ts": 'export const again = () => import("../main.ts");\n',
    });
    const problems = layerViolations(cyclic);
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
