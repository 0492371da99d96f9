// A model that quotes a 4-space file with 2-space indentation gets its edit in one request, through the
// real CLI and the mock model; the result tells it how the edit matched and shows the region.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("a 2-space old_text edits a 4-space file in one request", async () => {
  const src = "def main():\n    if ready:\n        start()\n    return 0\n";
  rig = await makeRig({
    files: { "app.py": src },
    script: [
      {
        tool_calls: [
          {
            name: "edit",
            arguments: {
              path: "app.py",
              old_text: "  if ready:\n    start()",
              new_text: "  if ready:\n    start()\n    if verbose:\n      log('started')",
            },
          },
        ],
      },
      { text: "done" },
    ],
  });
  const r = await rig.run(["-p", "log when started", "--approve", "all"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(readFileSync(join(rig.workspace, "app.py"), "utf8")).toBe(
    "def main():\n    if ready:\n        start()\n        if verbose:\n            log('started')\n    return 0\n",
  );
  expect(rig.mock.requests).toHaveLength(2);
  const result = JSON.stringify(rig.mock.requests[1]?.body);
  expect(result).toContain("Edited app.py: replaced 1 occurrence (line 2) [matched ignoring indentation");
  expect(result).toContain("5\\t            log('started')");
});
