// A candidate with a full summary still fits: what the commit restores (the user's messages, file
// snapshots) is sized by the room the hard limit leaves over the draft, measured as the fit check
// measures it. A restoration sized by fixed bounds alone (8 KiB of snapshots, the user's messages) once
// took a 16k-window session past its hard limit by a few tokens, and the session stopped.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompactionError } from "../../src/compaction/errors.ts";
import { restoreRoom, withRoomNamed } from "../../src/compaction/restore-room.ts";
import type { History } from "../../src/contract/history.ts";
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

test("a summary at its cap and 8 KiB of snapshots: the restoration shrinks, the candidate fits", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 6 }));
  for (let n = 0; n < 6; n++) writeFileSync(join(t.rig.workspace, `t${n}.txt`), toolOutput(n));
  // About 3,000 tokens: under the share of the cap past which it is condensed, and with the suffix it
  // leaves some 1,300 tokens of room: less than the 8 KiB snapshot and the user's messages take.
  t.mock = await startMockServer({
    script: [{ text: `## Goal\nRead out/.\n${"F0001=ab3x\n".repeat(1_100)}` }],
  });
  // The two reads of the recent suffix are about 9,600 tokens.
  const h = readsHistory({ remember: 30, lastRead: 400, closing: "read two" });
  t.rig.session.checkpoint(h);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), contextWindow: 16_000, maxOutput: 2_000 })
    .compactNow(h, []);
  const done = lastOf(t.rig.events, "compaction");
  expect(done).toMatchObject({ phase: "done", route: "model" });
  // Whatever was restored fits with the rest, by the same budget module's count.
  const after = (done as { after_tokens?: number }).after_tokens ?? Number.NaN;
  expect(after).toBeLessThanOrEqual(14_000);
  // The room was used, not left empty: within a few hundred tokens of the limit.
  expect(after).toBeGreaterThan(13_000);
  // The task is carried on first: the latest request of the span is restored in the user's words.
  expect(out.some((m) => m.meta?.restored === true && textOf(m).includes("Read every file in out/."))).toBe(
    true,
  );
  expect(out.slice(-6)).toEqual(h.slice(-6));
});

test("restoreRoom: what the fit check lets the draft grow by, calibration included, never negative", () => {
  expect(restoreRoom(budgetReading(20_000, 15_000), budgetReading(12_000, 15_000))).toBe(3_000);
  // Calibrated 1.25 real tokens per estimated one: 15,000 real is 12,000 estimated.
  const room = restoreRoom(budgetReading(20_000, 15_000, 1.25), budgetReading(10_000, 15_000));
  expect(room).toBe(2_000);
  expect(Math.ceil((10_000 + room) * 1.25)).toBeLessThanOrEqual(15_000);
  // A factor whose product lands a hair over the limit: one token less, so the check passes.
  for (const f of [1.1, 1.3, 1.7, 0.9, 1.01]) {
    const r = restoreRoom(budgetReading(50_000, 15_000, f), budgetReading(5_000, 15_000));
    expect(Math.ceil((5_000 + r) * f)).toBeLessThanOrEqual(15_000);
    expect(Math.ceil((5_000 + r + 1) * f)).toBeGreaterThan(15_000);
  }
  expect(restoreRoom(budgetReading(20_000, 15_000), budgetReading(16_000, 15_000))).toBe(0);
});

test("a commit module that adds past its room is named in the fit failure", () => {
  const overflow = () => {
    throw new CompactionError(
      "validate",
      "the candidate does not fit: about 14002 tokens, over the hard limit of 14000",
    );
  };
  expect(() => withRoomNamed(overflow, 900, 400)).toThrow(
    /does not fit: about 14002 tokens.*before_compact_commit added about 900 tokens to the draft, over the 400 it had room for/,
  );
  // Within its room, the failure is the draft's own and is passed on as it is.
  expect(() => withRoomNamed(overflow, 300, 400)).toThrow(/over the hard limit of 14000$/);
  expect(withRoomNamed(() => 13_000, 900, 400)).toBe(13_000);
});

test("a recent suffix that leaves less than the fixed rule: the summary is condensed to what fits", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 8 }));
  const h: History = [{ role: "system", content: "You are a test agent." }];
  h.push({ role: "user", content: "Read the files." });
  for (let n = 0; n < 4; n++) {
    h.push({ role: "assistant", content: "", tool_calls: [{ id: `a${n}`, name: "bash", arguments: "{}" }] });
    h.push({ role: "tool", tool_call_id: `a${n}`, content: toolOutput(n, 100) });
  }
  h.push({ role: "assistant", content: "next" });
  // The suffix: about 12,600 tokens of the 14,000 hard limit, so less than the fixed 4,000 is left.
  h.push({ role: "user", content: "Three more." });
  for (let n = 0; n < 3; n++) {
    h.push({ role: "assistant", content: "", tool_calls: [{ id: `b${n}`, name: "bash", arguments: "{}" }] });
    h.push({ role: "tool", tool_call_id: `b${n}`, content: toolOutput(n, 350) });
  }
  h.push({ role: "assistant", content: "done" });
  // About 3,000 tokens: within the fixed rule and under its condensing share, but more than fits.
  const long = `## Goal\nRead the files.\n${"F0001=ab3x\n".repeat(1_090)}`;
  t.mock = await startMockServer({
    script: [{ text: long }, { text: "## Goal\nRead the files.\nF0001=ab3x" }],
  });
  t.rig.session.checkpoint(h);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), contextWindow: 16_000, maxOutput: 2_000 })
    .compactNow(h, []);
  expect(t.mock.requests.length).toBe(2);
  expect(JSON.stringify(t.mock.requests[1]?.body)).toContain("You are condensing");
  const done = lastOf(t.rig.events, "compaction") as { phase?: string; after_tokens?: number };
  expect(done.phase).toBe("done");
  expect(done.after_tokens ?? Number.NaN).toBeLessThanOrEqual(14_000);
  expect(out.slice(-8)).toEqual(h.slice(-8));
});
