// A compaction leaves room for work: what the commit restores keeps the candidate below the trigger by a
// turn as large as the latest one (never less than the restore allowance, never past the hard limit).
// Restorations sized by the hard limit alone filled the candidate to it, and in a 16k window the next tool
// output started another compaction on nearly every turn.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workRoom } from "../../src/compaction/work-room.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import {
  budgetReading,
  closedAfterEach,
  lastOf,
  makeRig,
  openAiProvider,
  readsHistory,
  textOf,
  toolOutput,
} from "./helpers.ts";

const t = closedAfterEach();

test("the restored candidate leaves a turn as large as the latest one below the trigger", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 5 }));
  for (let n = 0; n < 6; n++) writeFileSync(join(t.rig.workspace, `t${n}.txt`), toolOutput(n, 320));
  t.mock = await startMockServer({
    script: [{ text: `## Goal\nRead out/.\n${"F0001=ab3x\n".repeat(360)}` }],
  });
  const h = readsHistory({ remember: 150, lastRead: 180 });
  t.rig.session.checkpoint(h);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), contextWindow: 16_000, maxOutput: 2_000 })
    .compactNow(h, []);
  const done = lastOf(t.rig.events, "compaction") as { phase?: string; after_tokens?: number };
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

const policy = { trigger_ratio: 0.8, rearm_ratio: 0.6 };

test("workRoom: below the trigger by the latest turn, at least the allowance, at most the hard room", () => {
  const base = budgetReading(20_000, 10_000);
  // Trigger line 8,000: 8,000 - 4,000 - 1,000 = 3,000.
  expect(
    workRoom({
      baseline: base,
      draft: budgetReading(4_000, 10_000),
      policy,
      latestTurn: 1_000,
      hardRoom: 6_000,
    }),
  ).toBe(3_000);
  // Past the line: the allowance (5% of the hard limit) still restores the latest request.
  expect(
    workRoom({
      baseline: base,
      draft: budgetReading(7_500, 10_000),
      policy,
      latestTurn: 1_000,
      hardRoom: 2_500,
    }),
  ).toBe(500);
  // Never past the hard limit.
  expect(
    workRoom({
      baseline: base,
      draft: budgetReading(9_800, 10_000),
      policy,
      latestTurn: 1_000,
      hardRoom: 200,
    }),
  ).toBe(200);
  // Calibrated: the lines are scaled back to the estimator (8,000 / 1.25 = 6,400).
  expect(
    workRoom({
      baseline: budgetReading(20_000, 10_000, 1.25),
      draft: budgetReading(2_000, 10_000),
      policy,
      latestTurn: 400,
      hardRoom: 6_000,
    }),
  ).toBe(4_000);
});
