// Worker failures during compaction: a hung or crashed compactor fails the compaction with a clear error,
// is evicted and never replayed, and the last checkpoint stays intact.
import { describe, expect, test } from "bun:test";
import { CompactionError } from "../../src/compaction/errors.ts";
import { pidExists } from "../worker/helpers.ts";
import { closedAfterEach, expectNothingCommitted, fixtureRig, syntheticHistory } from "./helpers.ts";

const t = closedAfterEach();

describe("worker failures: no fallback, no replay, history intact", () => {
  const history = syntheticHistory({ turns: 10 });

  test("a compactor that hangs past the deadline is evicted; the next compaction gets a fresh process", async () => {
    t.rig = fixtureRig(["--hang", "before_compact"], { deadlineMs: 700 });
    const err = await expectNothingCommitted(t.rig, history, "before_compact", /no reply within 700 ms/);
    expect(err.message).toContain('"compact"');
    const first = t.rig.records();
    expect(first.map((r) => r.event)).toEqual(["compact_plan", "before_compact"]);
    expect(pidExists(first[0]?.pid as number)).toBe(false); // evicted: killed and reaped
    // The hung request is not replayed: a new compaction starts over in a new process.
    await t.rig
      .controller()
      .compactNow(history, [])
      .catch(() => undefined);
    const later = t.rig.records().slice(first.length);
    expect(later[0]?.event).toBe("compact_plan");
    expect(later[0]?.pid).not.toBe(first[0]?.pid as number);
  });

  test("a compactor that crashes fails the compaction with a worker error and commits nothing", async () => {
    t.rig = fixtureRig(["--crash", "after_compact"]);
    const err = await expectNothingCommitted(t.rig, history, "after_compact", /compact/);
    expect(err.detail).toMatch(/exit|crash/i);
    expect(t.rig.records().filter((r) => r.event === "after_compact").length).toBe(1);
  });

  test("the worker error carries through with module and event", async () => {
    t.rig = fixtureRig(["--crash", "compact_plan"]);
    t.rig.session.checkpoint(history);
    const err = await t.rig
      .controller()
      .compactNow(history, [])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompactionError);
    expect((err as Error).message).toMatch(/worker "compact" failed on event "compact_plan"/);
  });
});
