// Through the real CLI and the mock model: a model that names the edit tool's arguments as other agents
// do (file_path, old_str, new_str) gets its edit done in one request, not an error and a retry.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("file_path, old_str and new_str edit the file in one request", async () => {
  rig = await makeRig({
    script: [
      {
        tool_calls: [
          {
            name: "edit",
            arguments: { file_path: "hello.txt", old_str: "world", new_str: "there", dry_run: false },
          },
        ],
      },
      { text: "Edited." },
    ],
    files: { "hello.txt": "hello world\n" },
  });
  const r = await rig.run(["-p", "change world to there", "--approve", "all"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(readFileSync(join(rig.workspace, "hello.txt"), "utf8")).toBe("hello there\n");
  expect(rig.mock.requests).toHaveLength(2);
  const result = JSON.stringify(rig.mock.requests[1]?.body);
  expect(result).toContain("Edited hello.txt: replaced 1 occurrence (line 1)");
  expect(result).toContain(
    "[ignored unknown argument dry_run (edit takes path, old_text, new_text, replace_all, edits)]",
  );
  expect(result).not.toContain("invalid arguments");
});
