// A Stop hook that always blocks must not loop without bound: it is told `stop_hook_active` (as Claude
// Code tells it) from the second stop on, and after `stop_block_limit` consecutive blocks in one turn
// (8 by default, hooks.json) the turn ends with one line naming the hook.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const ALWAYS = "cat >> stops.jsonl; echo >> stops.jsonl; echo 'not yet' >&2; exit 2";

function writeStopHook(r: Rig, extra: Record<string, unknown> = {}): void {
  writeFileSync(
    join(r.configDir, "hooks.json"),
    JSON.stringify({ ...extra, hooks: { Stop: [{ hooks: [{ type: "command", command: ALWAYS }] }] } }),
  );
}

test("a Stop hook that always blocks: 8 blocks, then the turn ends with one line naming the hook", async () => {
  const r = await makeRig({ script: () => ({ text: "I am done" }) });
  rig = r;
  writeStopHook(r);
  const out = await r.run(["-p", "go"]);
  expect(out.code).toBe(0);
  // the first stop and the 8 blocked ones: nine requests, then the ninth block ends the turn
  expect(r.mock.requests.length).toBe(9);
  const lines = out.stderr.split("\n").filter((l) => l.includes("stop_block_limit"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(ALWAYS.slice(0, 20));
  expect(lines[0]).toContain("hook Stop");
  expect(lines[0]).toContain("8 times in a row");
  const seen = readFileSync(join(r.workspace, "stops.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { stop_hook_active: boolean; hook_event_name: string });
  expect(seen[0]?.stop_hook_active).toBe(false);
  expect(seen.slice(1).every((s) => s.stop_hook_active === true)).toBe(true);
  expect(seen[0]?.hook_event_name).toBe("Stop");
}, 60_000);

test("stop_block_limit in hooks.json sets the cap", async () => {
  const r = await makeRig({ script: () => ({ text: "I am done" }) });
  rig = r;
  writeStopHook(r, { stop_block_limit: 2 });
  const out = await r.run(["-p", "go"]);
  expect(out.code).toBe(0);
  expect(r.mock.requests.length).toBe(3);
  expect(out.stderr).toContain("2 times in a row");
}, 60_000);
