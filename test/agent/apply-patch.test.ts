// apply_patch through the real CLI and the mock model: a GPT-5 model is offered apply_patch instead of
// edit and write (by the model table), and one patch adds, updates with context, moves, deletes and
// matches fuzzy context; other models keep edit and write.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolNames = (body: unknown) =>
  ((body as { tools?: { function?: { name: string }; name?: string }[] }).tools ?? []).map(
    (t) => t.function?.name ?? t.name,
  );

const PATCH = [
  "*** Begin Patch",
  "*** Add File: docs/notes.md",
  "+# Notes",
  "+",
  "+Written by a patch.",
  "*** Update File: src/app.py",
  "@@ def main():",
  "     config = load()",
  "-    run(config)",
  "+    run(config, verbose=True)",
  "*** Update File: src/util.py",
  "*** Move to: src/helpers.py",
  "@@",
  "-def helper():",
  "+def helper(x):",
  "*** Update File: src/style.py",
  "@@",
  '  label = "Save"',
  "-  color = 'red'",
  "+  color = 'green'",
  "*** Delete File: old.txt",
  "*** End Patch",
].join("\n");

test("a GPT-5 model changes files with one apply_patch call: add, update, move, delete, fuzzy context", async () => {
  rig = await makeRig({
    model: "gpt-5",
    files: {
      "src/app.py": "def main():\n    config = load()\n    run(config)\n",
      "src/util.py": "def helper():\n    return 1\n",
      "src/style.py": "class Button:\n    label = “Save”\n    color = 'red'\n",
      "old.txt": "obsolete\n",
    },
    script: [{ tool_calls: [{ name: "apply_patch", arguments: { input: PATCH } }] }, { text: "patched" }],
  });
  const r = await rig.run(["-p", "apply the change", "--approve", "all"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const names = toolNames(rig.mock.requests[0]?.body);
  expect(names).toContain("apply_patch");
  expect(names).not.toContain("edit");
  expect(names).not.toContain("write");
  const file = (p: string) => readFileSync(join(rig?.workspace as string, p), "utf8");
  expect(file("docs/notes.md")).toBe("# Notes\n\nWritten by a patch.\n");
  expect(file("src/app.py")).toBe("def main():\n    config = load()\n    run(config, verbose=True)\n");
  expect(existsSync(join(rig.workspace, "src/util.py"))).toBe(false);
  expect(file("src/helpers.py")).toBe("def helper(x):\n    return 1\n");
  expect(file("src/style.py")).toBe("class Button:\n    label = “Save”\n    color = 'green'\n");
  expect(existsSync(join(rig.workspace, "old.txt"))).toBe(false);
  const result = JSON.stringify(rig.mock.requests[1]?.body);
  expect(result).toContain("Added docs/notes.md");
  expect(result).toContain("Updated src/util.py → src/helpers.py");
  expect(result).toContain("Deleted old.txt");
  const first = rig.mock.requests[0]?.body as { messages: { content: string }[] } | undefined;
  const system = first?.messages[0]?.content;
  expect(system).toContain("Change files with apply_patch");
});

test("other models are offered edit and write, not apply_patch", async () => {
  rig = await makeRig({ model: "claude-sonnet-4-5", script: [{ text: "ok" }] });
  await rig.run(["-p", "hi"]);
  const names = toolNames(rig.mock.requests[0]?.body);
  expect(names).toEqual(expect.arrayContaining(["read", "write", "edit", "bash"]));
  expect(names).not.toContain("apply_patch");
});
