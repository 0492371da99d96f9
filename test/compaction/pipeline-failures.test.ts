// Worker failures during compaction: a hung or crashed compactor fails the compaction with a clear error,
// is evicted and never replayed, and the last checkpoint stays intact.
import { afterEach, describe, expect, test } from "bun:test";
import { CompactionError } from "../../src/compaction/errors.ts";
import { pidExists } from "../worker/helpers.ts";
import { expectNothingCommitted, fixtureRig, type Rig, syntheticHistory } from "./helpers.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("worker failures: no fallback, no replay, history intact", () => {
  const history = syntheticHistory({ turns: 10 });

  test("a compactor that hangs past the deadline is evicted; the next compaction gets a fresh process", async () => {
    rig = fixtureRig(["--hang", "before_compact"], { deadlineMs: 700 });
    const err = await expectNothingCommitted(rig, history, "before_compact", /no reply within 700 ms/);
    expect(err.message).toContain('"compact"');
    const first = rig.records();
    expect(first.map((r) => r.event)).toEqual(["compact_plan", "before_compact"]);
    expect(pidExists(first[0]?.pid as number)).toBe(false); // evicted: killed and reaped
    // The hung request is not replayed: a new compaction starts over in a new process.
    await rig
      .controller()
      .compactNow(history, [])
      .catch(() => undefined);
    const later = rig.records().slice(first.length);
    expect(later[0]?.event).toBe("compact_plan");
    expect(later[0]?.pid).not.toBe(first[0]?.pid as number);
  });

  test("a compactor that crashes fails the compaction with a worker error and commits nothing", async () => {
    rig = fixtureRig(["--crash", "after_compact"]);
    const err = await expectNothingCommitted(rig, history, "after_compact", /compact/);
    expect(err.detail).toMatch(/exit|crash/i);
    expect(rig.records().filter((r) => r.event === "after_compact").length).toBe(1);
  });

  test("the worker error carries through with module and event", async () => {
    rig = fixtureRig(["--crash", "compact_plan"]);
    rig.session.checkpoint(history);
    const err = await rig
      .controller()
      .compactNow(history, [])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompactionError);
    expect((err as Error).message).toMatch(/worker "compact" failed on event "compact_plan"/);
  });
});
