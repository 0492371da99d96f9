// Compaction events written by reference (pieces against the history the log holds), with a whole
// state written again once the log since the last one outgrows a multiple of the history: the log must
// replay to exactly the history the session holds, keep every message ever seen in full, stay
// proportional to the new messages, and old logs (whole compactions only) must still open.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { History, Message } from "../../src/contract/history.ts";
import { compactionPieces, resolvePieces } from "../../src/session/compaction-pieces.ts";
import { EventsLog, parseEventLines, replayEvents } from "../../src/session/events-log.ts";
import { reconcile } from "../../src/session/reconcile.ts";
import { allMessages } from "../../src/session/recover.ts";
import { Session, WHOLE_STATE_EVERY } from "../../src/session/session.ts";
import { compactingScenario, turn } from "./fixtures/compacting-scenario.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

const dirs: Dirs[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});
function dirsFor(): Dirs {
  const d = makeDirs();
  dirs.push(d);
  return d;
}

function logOf(s: Session): EventsLog {
  return new EventsLog(join(s.dir, "events.jsonl"));
}

function replayLog(s: Session): History {
  const { events, skipped } = logOf(s).read();
  const r = replayEvents(events);
  expect(skipped).toBe(0);
  expect(r.problems).toBe(0);
  return r.history;
}

/** history.json and meta.json gone: the session is rebuilt from the log alone. */
function reopenFromLog(data: string, s: Session): Session {
  rmSync(join(s.dir, "history.json"), { force: true });
  rmSync(join(s.dir, "meta.json"), { force: true });
  return Session.open(data, s.id);
}

/** Every key at any depth (JSON.stringify's replacer list applies at every level). */
function flatKeys(v: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) {
      if (!Array.isArray(v)) out[k] = true;
      flatKeys(x, out);
    }
  return out;
}

function kinds(s: Session): { delta: number; whole: number } {
  const c = readEvents(s.dir).filter((e) => e.type === "compaction");
  return { delta: c.filter((e) => "pieces" in e).length, whole: c.filter((e) => "history" in e).length };
}

describe("compaction events by reference", () => {
  test.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "the log replays to the session's history at every step (seed %i)",
    (seed) => {
      const d = dirsFor();
      const { steps, states } = compactingScenario(seed, 60);
      const s = Session.create({ dataDir: d.data, workspace: d.ws });
      const seen = new Set<string>();
      // Key order aside (a parsed message has its schema's order): canonical text.
      const canon = (m: Message) => JSON.stringify(m, Object.keys(flatKeys(m)).sort());
      for (const [i, step] of steps.entries()) {
        const before = states[i] as Message[];
        const after = states[i + 1] as Message[];
        if (step === "checkpoint") s.checkpoint(after);
        else s.commitCompaction(before, after, { reason: "manual", cut: 0 });
        for (const m of after) seen.add(canon(m));
        expect(replayLog(s)).toEqual(after);
        // Opening reads the log back to its second-to-last whole state: that window alone is enough.
        const tail = logOf(s).tailLines(2);
        expect(reconcile(tail.lines, undefined, {}).history).toEqual(after);
      }
      const k = kinds(s);
      expect(k.delta).toBeGreaterThan(k.whole);
      expect(k.whole).toBeGreaterThan(0);
      // Nothing lost: every message ever in a checkpoint is in the log in full, a pruned output included.
      const ever = new Set(allMessages(s.dir).map(canon));
      for (const m of seen) expect(ever.has(m)).toBe(true);
      const last = states[states.length - 1];
      expect(reopenFromLog(d.data, s).history()).toEqual(last as Message[]);
      expect(Session.open(d.data, s.id).history()).toEqual(last as Message[]);
    },
  );

  test("a reopened session logs its first compaction whole, then by reference", () => {
    const d = dirsFor();
    const { steps, states } = compactingScenario(11, 40);
    let s = Session.create({ dataDir: d.data, workspace: d.ws });
    for (const [i, step] of steps.entries()) {
      if (i === 20) s = Session.open(d.data, s.id);
      if (step === "checkpoint") s.checkpoint(states[i + 1] as Message[]);
      else s.commitCompaction(states[i] as Message[], states[i + 1] as Message[], { reason: "auto", cut: 0 });
    }
    const compactions = readEvents(s.dir).filter((e) => e.type === "compaction");
    const firstAfterOpen = steps.findIndex((st, i) => i >= 20 && st === "compaction");
    const index = steps.slice(0, firstAfterOpen).filter((st) => st === "compaction").length;
    expect("history" in (compactions[index] as object)).toBe(true);
    expect(replayLog(s)).toEqual(states[states.length - 1] as Message[]);
    expect(reopenFromLog(d.data, s).history()).toEqual(states[states.length - 1] as Message[]);
  });

  test("pieces: a prune is the kept runs and the pruned message; a summary is itself and the kept runs", () => {
    const sys: Message = { role: "system", content: "sys" };
    const h = [sys, ...turn(1, 400), ...turn(2, 400), ...turn(3, 400)];
    // Fresh objects, as a history that came back from a worker: matched by content.
    const copy = (m: Message) => JSON.parse(JSON.stringify(m)) as Message;
    const pruned = h.map((m, i) => (i === 7 ? { ...m, content: "[pruned]" } : copy(m)));
    expect(compactionPieces(h, pruned)).toEqual([
      { from: 0, to: 7 },
      { message: pruned[7] as Message },
      { from: 8, to: 13 },
    ]);
    const summary: Message = { role: "user", content: "summary" };
    const summarised = [sys, summary, ...h.slice(1, 5), ...h.slice(9)].map(copy);
    expect(compactionPieces(h, summarised)).toEqual([
      { from: 0, to: 1 },
      { message: summary },
      { from: 1, to: 5 },
      { from: 9, to: 13 },
    ]);
    expect(resolvePieces(compactionPieces(h, summarised), h)).toEqual(summarised);
    expect(resolvePieces([{ from: 9, to: 14 }], h)).toBeUndefined();
  });

  test("a delta that does not fit the history before it is a problem, not a wrong history", () => {
    const d = dirsFor();
    const s = Session.create({ dataDir: d.data, workspace: d.ws });
    const h = [{ role: "system", content: "sys" } as Message, ...turn(1, 400), ...turn(2, 400)];
    s.checkpoint(h);
    s.commitCompaction(h, h, { reason: "manual", cut: 0 });
    const lines = readFileSync(join(s.dir, "events.jsonl"), "utf8").split("\n");
    const delta = lines.findIndex((l) => l.includes('"type":"compaction","pieces"'));
    expect(delta).toBeGreaterThan(0);
    // Drop the message line just before the delta: the history it refers to is one message short.
    const kept = lines.slice(0, delta + 1).filter((_, i) => i !== delta - 1);
    const r = replayEvents(parseEventLines(kept).events);
    expect(r.problems).toBe(1);
    expect(r.history).toEqual(h.slice(0, -1));
  });

  test("an old log, whose compactions carry the whole history, still opens", () => {
    const d = dirsFor();
    const s = Session.create({ dataDir: d.data, workspace: d.ws });
    const sys: Message = { role: "system", content: "sys" };
    const h1 = [sys, ...turn(1, 400), ...turn(2, 400)];
    const after: Message[] = [sys, { role: "user", content: "summary" }, ...turn(2, 400)];
    const h2 = [...after, ...turn(3, 400)];
    const ts = new Date().toISOString();
    const lines = [
      ...h1.map((message, index) => ({ ts, type: "message", index, message })),
      {
        ts,
        type: "compaction",
        messages_before: h1.length,
        record: { reason: "manual", cut: 5 },
        history: after,
      },
      ...turn(3, 400).map((message, i) => ({ ts, type: "message", index: after.length + i, message })),
    ];
    appendFileSync(join(s.dir, "events.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const reopened = reopenFromLog(d.data, s);
    expect(reopened.history()).toEqual(h2);
    expect(reopened.meta.compactions).toBe(1);
    expect(allMessages(s.dir).map((m) => m.content)).toContain("summary");
    // It keeps compacting, now by reference after one whole state.
    const h3 = h2.map((m) => (m.role === "tool" ? { ...m, content: "[pruned]" } : m));
    reopened.commitCompaction(h2, h3, { reason: "manual", cut: 0 });
    reopened.checkpoint([...h3, ...turn(4, 400)]);
    const h4 = [...h3, ...turn(4, 400)].map((m) => (m.role === "tool" ? { ...m, content: "[pruned]" } : m));
    reopened.commitCompaction([...h3, ...turn(4, 400)], h4, { reason: "manual", cut: 0 });
    expect(kinds(reopened)).toEqual({ delta: 1, whole: 2 });
    expect(reopenFromLog(d.data, reopened).history()).toEqual(h4);
  });

  test("300 compactions of a growing history: the log grows with the new messages, not with history x compactions", () => {
    const d = dirsFor();
    const s = Session.create({ dataDir: d.data, workspace: d.ws });
    const sys: Message = { role: "system", content: "sys" };
    let h: Message[] = [sys];
    let newBytes = 0;
    let historyTimesCompactions = 0;
    const log = join(s.dir, "events.jsonl");
    for (let t = 1; t <= 300; t++) {
      const added = turn(t, 2000);
      for (const m of added) newBytes += JSON.stringify(m).length;
      const grown = [...h, ...added];
      s.checkpoint(grown);
      // Prune every tool output but the newest: each compaction changes one message.
      const after = grown.map((m, i) =>
        m.role === "tool" && i < grown.length - 2 && m.meta?.pruned !== true
          ? { ...m, content: `[pruned ${String(m.meta?.turn)}]`, meta: { ...m.meta, pruned: true } }
          : m,
      );
      s.commitCompaction(grown, after, { reason: "auto", cut: 0 });
      h = after;
      const historyBytes = h.reduce((n, m) => n + JSON.stringify(m).length + 1, 0);
      historyTimesCompactions += historyBytes;
      // Bounded replay window: the bytes after the last whole state stay within the multiple (+ one append).
      if (t % 10 !== 0) continue;
      const text = readFileSync(log, "utf8");
      const lastWhole = text.lastIndexOf('"type":"compaction","messages_before"');
      expect(text.length - text.indexOf("\n", lastWhole)).toBeLessThan(
        WHOLE_STATE_EVERY * historyBytes + 4 * 2200 + 4096,
      );
    }
    const size = statSync(log).size;
    // Message lines carry ts/type/index besides the message: about 100 bytes each, 8 per turn plus pieces.
    expect(size).toBeLessThan(2 * newBytes + 300 * 2000);
    expect(size * 10).toBeLessThan(historyTimesCompactions);
    expect(replayLog(s)).toEqual(h);
    expect(reopenFromLog(d.data, s).history()).toEqual(h);
  }, 60_000);
});
