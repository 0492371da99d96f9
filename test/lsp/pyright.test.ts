// The real pyright language server: a Python type error from an edit is in that edit's result.
import { afterEach, expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import { lspRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("pyright: a type error from an edit is in its result, with the rule and line", async () => {
  rig = await lspRig({
    lsp: { servers: {} },
    files: { "pyproject.toml": "[project]\nname = 'demo'\n", "app.py": "count: int = 1\n" },
    script: [
      { tool_calls: [{ name: "lsp", arguments: { operation: "diagnostics", file_path: "app.py" } }] },
      { tool_calls: [{ name: "edit", arguments: { path: "app.py", old_text: "= 1", new_text: '= "one"' } }] },
      { text: "done" },
    ],
  });
  const r = await rig.run(["-p", "go", "--approve", "all", "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const results = toolResults(rig);
  expect(results[0]).toBe("app.py: no errors or warnings");
  expect(results[1]).toContain("python reports 1 error in app.py:");
  expect(results[1]).toMatch(
    /app\.py:1:14 error \[reportAssignmentType\]: Type "Literal\['one'\]" is not assignable to declared type "int"/,
  );
}, 90_000);
