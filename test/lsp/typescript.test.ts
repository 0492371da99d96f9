// The real typescript-language-server (over TypeScript 5.9's tsserver): diagnostics join the results of
// the edits that cause them, in the changed file and in the other open files a change breaks; the lsp
// tool navigates. Each script asks for the file's diagnostics first: that waits for the server to load
// the project, so the edits after it meet a warm server (a cold one may take longer than an edit waits).
import { afterEach, describe, expect, test } from "bun:test";
import { events, type Rig } from "../agent/rig.ts";
import { lspRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] });
const warm = (path: string) => ({
  tool_calls: [{ name: "lsp", arguments: { operation: "diagnostics", file_path: path } }],
});
const edit = (path: string, old_text: string, new_text: string) => ({
  tool_calls: [{ name: "edit", arguments: { path, old_text, new_text } }],
});

describe("lsp with typescript-language-server", () => {
  test("a type error from an edit is in that edit's result, with its code and line; the fix clears it", async () => {
    rig = await lspRig({
      files: { "tsconfig.json": TSCONFIG, "src/a.ts": "export const n: number = 1;\n" },
      script: [
        warm("src/a.ts"),
        edit("src/a.ts", "= 1;", '= "one";'),
        edit("src/a.ts", '= "one";', "= 2;"),
        { text: "done" },
      ],
    });
    const r = await rig.run(["-p", "go", "--approve", "all", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[0]).toBe("src/a.ts: no errors or warnings");
    expect(results[1]).toContain("typescript reports 1 error in src/a.ts:");
    expect(results[1]).toContain(
      "src/a.ts:1:14 error [TS2322]: Type 'string' is not assignable to type 'number'.",
    );
    expect(results[2]).toStartWith("Edited src/a.ts");
    expect(results[2]).not.toContain("error");
    const d = events(r.stdout).filter((e) => e.type === "diagnostics");
    expect(d).toEqual([
      { type: "diagnostics", id: expect.any(String), files: [{ path: "src/a.ts", errors: 1, warnings: 0 }] },
    ]);
  }, 90_000);

  test("a signature change that breaks an open file names that file; navigation finds definition and references", async () => {
    rig = await lspRig({
      files: {
        "tsconfig.json": TSCONFIG,
        "src/lib.ts": "export function greet(name: string): string {\n  return name;\n}\n",
        "src/use.ts": 'import { greet } from "./lib";\n\nexport const s = greet("x");\n',
      },
      script: [
        { tool_calls: [{ name: "read", arguments: { path: "src/use.ts" } }] },
        warm("src/lib.ts"),
        {
          tool_calls: [
            {
              name: "lsp",
              arguments: { operation: "goToDefinition", file_path: "src/use.ts", line: 3, character: 18 },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: "lsp",
              arguments: { operation: "findReferences", file_path: "src/lib.ts", line: 1, character: 17 },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: "lsp",
              arguments: { operation: "hover", file_path: "src/lib.ts", line: 1, character: 17 },
            },
          ],
        },
        {
          tool_calls: [{ name: "lsp", arguments: { operation: "documentSymbol", file_path: "src/lib.ts" } }],
        },
        edit("src/lib.ts", "name: string)", "name: string, times: number)"),
        { text: "done" },
      ],
    });
    const r = await rig.run(["-p", "go", "--approve", "all", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[2]).toBe("src/lib.ts:1:17: export function greet(name: string): string {");
    expect(results[3]?.split("\n").sort()).toEqual(
      [
        'src/use.ts:1:10: import { greet } from "./lib";',
        'src/use.ts:3:18: export const s = greet("x");',
        "src/lib.ts:1:17: export function greet(name: string): string {",
      ].sort(),
    );
    expect(results[4]).toContain("function greet(name: string): string");
    expect(results[5]).toBe("src/lib.ts:1:17 function greet");
    expect(results[6]).toContain("New errors this change caused in other files:");
    expect(results[6]).toContain("src/use.ts:3:18 error [TS2554]: Expected 2 arguments, but got 1.");
    const d = events(r.stdout).filter((e) => e.type === "diagnostics");
    expect(d.at(-1)?.files).toEqual([{ path: "src/use.ts", errors: 1, warnings: 0 }]);
  }, 90_000);
});
