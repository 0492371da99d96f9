// Compactions read back from the log (what each kept, dropped and added) and undone: the history before
// compaction N comes back with every message added since, as one logged base event that survives a
// reopen from the log alone, and the uncompaction can itself be undone.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { compactionParts, readCompactionLog } from "../../src/session/compaction-history.ts";
import { Session } from "../../src/session/session.ts";
import { turn } from "./fixtures/compacting-scenario.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

const dirs: Dirs[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

const SYSTEM: Message = { role: "system", content: "you are a test" };
const RECORD = {
  reason: "manual",
  route: "model",
  cut: 0,
  messages_before: 0,
  messages_after: 0,
  estimator: { id: "t", version: 1 },
  before_tokens: 10,
  after_tokens: 5,
  summary_chars: 7,
  summary_requests: 1,
  modules: ["compact"],
  duration_ms: 1,
} as const;

function summary(text: string): Message {
  return { role: "user", content: `[summary] ${text}`, meta: { summary: true } };
}

/** A session: turns 1–3, compaction 1 (keeps turn 3), turn 4, compaction 2 (keeps turn 4), turn 5. */
function scenario() {
  const d = makeDirs();
  dirs.push(d);
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  const t = (n: number) => turn(n, 40);
  const b1 = [SYSTEM, ...t(1), ...t(2), ...t(3)];
  s.checkpoint(b1);
  const a1 = [SYSTEM, summary("turns 1-2"), ...t(3)];
  s.commitCompaction(b1, a1, { ...RECORD, cut: 9 });
  const b2 = [...a1, ...t(4)];
  s.checkpoint(b2);
  const a2 = [SYSTEM, summary("turns 1-3"), ...t(4)];
  s.commitCompaction(b2, a2, { ...RECORD, cut: 6 });
  const now = [...a2, ...t(5)];
  s.checkpoint(now);
  return { d, s, b1, a1, b2, a2, now, t };
}

describe("compaction log", () => {
  test("each compaction with the histories either side and what it dropped", () => {
    const { s, b1, a1, b2, a2, now } = scenario();
    const log = readCompactionLog(s.dir);
    expect(log.compactions.map((c) => c.number)).toEqual([1, 2]);
    expect(log.compactions[0]?.before).toEqual(b1);
    expect(log.compactions[0]?.after).toEqual(a1);
    expect(log.compactions[1]?.before).toEqual(b2);
    expect(log.compactions[1]?.after).toEqual(a2);
    expect(log.current).toEqual(now);
    const parts = compactionParts(log.compactions[0] as (typeof log.compactions)[0]);
    // Turns 1 and 2 (four messages each) were summarised; turn 3 was kept; the summary was added.
    expect(parts.dropped.length).toBe(8);
    expect(parts.kept).toBe(5);
    expect(parts.summary).toEqual(summary("turns 1-2"));
  });
});

describe("uncompact", () => {
  test("the last compaction undone: its history before, with what was added after", () => {
    const { s, b2, now, t } = scenario();
    const r = s.historyBeforeCompaction(2, now);
    expect(r).toEqual({ history: [...b2, ...t(5)], compaction: 2 });
  });

  test("an older compaction undone: every message added after it and after each later one", () => {
    const { s, b1, now, t } = scenario();
    const r = s.historyBeforeCompaction(1, now);
    expect(r).toEqual({ history: [...b1, ...t(4), ...t(5)], compaction: 1 });
  });

  test("refused for a compaction that does not exist, or a history the log does not hold", () => {
    const { s, now, t } = scenario();
    expect(s.historyBeforeCompaction(3, now)).toEqual({ why: expect.stringContaining("no compaction 3") });
    expect(s.historyBeforeCompaction(1, [...now, ...t(6)])).toEqual({
      why: expect.stringContaining("not the one the session's log holds"),
    });
  });

  test("the restore is logged, survives a reopen from the log alone, and can be undone", () => {
    const { d, s, b2, a2, now, t } = scenario();
    const r = s.historyBeforeCompaction(2, now);
    if (!("history" in r)) throw new Error(r.why);
    s.restoreHistory(r.history, { kind: "uncompact", compaction: 2 });
    const last = readEvents(s.dir).at(-1) as Record<string, unknown>;
    expect(last.type).toBe("base");
    expect(last.restore).toEqual({ kind: "uncompact", compaction: 2 });
    // Only the log: history.json and meta.json gone, as after a crash before either was written.
    rmSync(join(s.dir, "history.json"));
    rmSync(join(s.dir, "meta.json"));
    const reopened = Session.open(d.data, s.id);
    expect(reopened.history()).toEqual([...b2, ...t(5)]);
    // A turn after the uncompaction, then the undo: the compacted history with both turns after it.
    const more = [...reopened.history(), ...t(6)];
    reopened.checkpoint(more);
    const undo = reopened.historyBeforeUncompaction(more);
    expect(undo).toEqual({ history: [...now, ...t(6)], compaction: 2 });
    if (!("history" in undo)) throw new Error(undo.why);
    reopened.restoreHistory(undo.history, { kind: "recompact", compaction: 2 });
    expect(Session.open(d.data, s.id).history()).toEqual([...a2, ...t(5), ...t(6)]);
    // Undone once: nothing more to undo, and compaction 1 can still be undone through both restores.
    expect(reopened.historyBeforeUncompaction(undo.history)).toEqual({
      why: expect.stringContaining("already undone"),
    });
    const again = reopened.historyBeforeCompaction(1, undo.history);
    expect(again).toEqual({
      history: [SYSTEM, ...t(1), ...t(2), ...t(3), ...t(4), ...t(5), ...t(6)],
      compaction: 1,
    });
  });

  test("nothing to undo when the last action was a compaction", () => {
    const { s, now } = scenario();
    expect(s.historyBeforeUncompaction(now)).toEqual({ why: expect.stringContaining("was not one") });
  });
});
