// A compaction leaves room for work: what the commit restores keeps the candidate below the trigger by a
// turn as large as the latest one (never less than the restore allowance, never past the hard limit).
// Restorations sized by the hard limit alone filled the candidate to it, and in a 16k window the next tool
// output started another compaction on nearly every turn.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workRoom } from "../../src/compaction/work-room.ts";
import type { BudgetResult } from "../../src/contract/compaction.ts";
import type { History } from "../../src/contract/history.ts";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { lastOf, makeRig, openAiProvider, type Rig, textOf } from "./helpers.ts";

let rig: Rig | undefined;
let mock: MockServer | undefined;
afterEach(async () => {
  await rig?.close();
  await mock?.close();
  rig = undefined;
  mock = undefined;
});

const output = (n: number, lines: number) =>
  `line of tool output number ${n}, nothing to see\n`.repeat(lines);

/** Six reads in the compacted span; the suffix: a request, a 400-line read and the latest, 180-line one. */
function history(): History {
  const h: History = [{ role: "system", content: "You are a test agent." }];
  h.push({ role: "user", content: `Read every file in out/. ${"Remember each fact. ".repeat(150)}` });
  const read = (id: string, path: string, lines: number) => {
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [{ id, name: "read", arguments: JSON.stringify({ path }) }],
    });
    h.push({ role: "tool", tool_call_id: id, content: output(h.length, lines) });
  };
  for (let t = 0; t < 6; t++) read(`a${t}`, `t${t}.txt`, 320);
  h.push({ role: "assistant", content: "read six" });
  h.push({ role: "user", content: "Go on with the next two." });
  read("b0", "u0.txt", 400);
  read("b1", "u1.txt", 180);
  return h;
}

test("the restored candidate leaves a turn as large as the latest one below the trigger", async () => {
  rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 5 }));
  for (let t = 0; t < 6; t++) writeFileSync(join(rig.workspace, `t${t}.txt`), output(t, 320));
  mock = await startMockServer({ script: [{ text: `## Goal\nRead out/.\n${"F0001=ab3x\n".repeat(360)}` }] });
  const h = history();
  rig.session.checkpoint(h);
  const out = await rig
    .controller({ provider: openAiProvider(mock.url), contextWindow: 16_000, maxOutput: 2_000 })
    .compactNow(h, []);
  const done = lastOf(rig.events, "compaction") as { phase?: string; after_tokens?: number };
  expect(done.phase).toBe("done");
  const latest = (180 * 45) / 4; // the 180-line read, about 2,000 tokens
  // Trigger at 0.85 of the 14,000-token hard limit: the next turn as large as the latest fits below it.
  expect((done.after_tokens ?? Number.NaN) + latest).toBeLessThanOrEqual(0.85 * 14_000);
  // Restoration still happened within that room: the task is carried on in the user's words.
  expect(out.some((m) => m.meta?.restored === true && textOf(m).includes("Read every file in out/."))).toBe(
    true,
  );
  expect(out.slice(-5)).toEqual(h.slice(-5));
});

const reading = (total: number, hard: number, factor?: number): BudgetResult =>
  ({
    estimator: { id: "i-chars", version: 1 },
    estimates: { total },
    hard_limit: hard,
    recommendation: "none",
    ...(factor === undefined ? {} : { calibration_factor: factor }),
  }) as BudgetResult;
const policy = { trigger_ratio: 0.8, rearm_ratio: 0.6 };

test("workRoom: below the trigger by the latest turn, at least the allowance, at most the hard room", () => {
  const base = reading(20_000, 10_000);
  // Trigger line 8,000: 8,000 - 4,000 - 1,000 = 3,000.
  expect(
    workRoom({ baseline: base, draft: reading(4_000, 10_000), policy, latestTurn: 1_000, hardRoom: 6_000 }),
  ).toBe(3_000);
  // Past the line: the allowance (5% of the hard limit) still restores the latest request.
  expect(
    workRoom({ baseline: base, draft: reading(7_500, 10_000), policy, latestTurn: 1_000, hardRoom: 2_500 }),
  ).toBe(500);
  // Never past the hard limit.
  expect(
    workRoom({ baseline: base, draft: reading(9_800, 10_000), policy, latestTurn: 1_000, hardRoom: 200 }),
  ).toBe(200);
  // Calibrated: the lines are scaled back to the estimator (8,000 / 1.25 = 6,400).
  expect(
    workRoom({
      baseline: reading(20_000, 10_000, 1.25),
      draft: reading(2_000, 10_000),
      policy,
      latestTurn: 400,
      hardRoom: 6_000,
    }),
  ).toBe(4_000);
});
