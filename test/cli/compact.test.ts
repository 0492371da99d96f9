// `i compact` as a person runs it on a session with too little in it: a clear line, no model request.
import { afterEach, expect, test } from "bun:test";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("i compact with too little to compact says 'nothing compacted' and why, not 'compaction failed'", async () => {
  rig = await makeRig({ script: (_req, i) => ({ text: `answer ${i}` }) });
  expect((await rig.run(["-p", "one"])).code).toBe(0);
  expect((await rig.run(["-p", "two", "-c"])).code).toBe(0);
  const before = rig.mock.requests.length;
  const r = await rig.run(["compact"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^i compact: nothing compacted: .*keep_recent.*; the session is unchanged\n$/);
  expect(r.stderr).not.toContain("failed");
  expect(rig.mock.requests.length).toBe(before);
}, 60_000);
