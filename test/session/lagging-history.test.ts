// history.json is rewritten amortised, not at every checkpoint: a long session's file lags the log by
// design. Opening must replay the log from the point meta.json recorded, a history.json someone else
// wrote must still win, and the bytes rewritten must stay proportional to the bytes logged.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { EventsLog, replayEvents } from "../../src/session/events-log.ts";
import { formatHistory } from "../../src/session/history-file.ts";
import { HISTORY_REWRITE_MIN_BYTES, Session } from "../../src/session/session.ts";
import { expectedMessage } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, readEvents, readJson } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

/** A system prompt big enough that history.json is past the always-rewrite size from the start. */
const BIG_SYSTEM: Message = {
  role: "system",
  content: `big system ${"s".repeat(HISTORY_REWRITE_MIN_BYTES)}`,
};

/** The same message objects every time (as the agent's history holds them), so checkpoints compare by reference. */
const ALL: Message[] = [BIG_SYSTEM, ...Array.from({ length: 400 }, (_, i) => expectedMessage(i + 1))];

function convo(n: number): Message[] {
  return ALL.slice(0, n + 1);
}

const historyFile = (s: Session) => join(s.dir, "history.json");
const inode = (path: string) => statSync(path).ino;
const logSize = (s: Session) => statSync(join(s.dir, "events.jsonl")).size;
const replayed = (s: Session) =>
  replayEvents(new EventsLog(join(s.dir, "events.jsonl")).read().events).history;

/** A session checkpointed one message at a time up to message n; history.json written at message 4. */
function lagging(n: number): Session {
  const s = Session.create({ dataDir: d.data, workspace: d.ws, provider: "openai", model: "m" });
  for (let k = 4; k <= n; k++) s.checkpoint(convo(k));
  return s;
}

describe("a long session's history.json lags the log", () => {
  test("small checkpoints leave history.json alone; opening replays the log after the recorded point", () => {
    const s = lagging(4);
    const file = historyFile(s);
    const ino = inode(file);
    for (let k = 5; k <= 12; k++) s.checkpoint(convo(k));
    // Not rewritten: the log grew by far less than the file's size.
    expect(inode(file)).toBe(ino);
    expect(readJson(file)).toEqual(convo(4));
    const rec = s.meta.history_file;
    expect(rec).toMatchObject({ ino, size: statSync(file).size });
    expect(rec?.log_size).toBeLessThan(logSize(s));
    const eventsBefore = readEvents(s.dir).length;
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(12));
    expect(o.meta.messages).toBe(13);
    // Opening wrote nothing: a running session's lag is not a crash to repair.
    expect(readEvents(s.dir).length).toBe(eventsBefore);
    expect(inode(file)).toBe(ino);
    // The reopened session goes on from there, and the log still replays to the same history.
    o.checkpoint(convo(13));
    expect(Session.open(d.data, s.id).history()).toEqual(convo(13));
    expect(replayed(s)).toEqual(convo(13));
  });

  test("far behind (hundreds of appends): opened whole, and flush brings the file up to the log", () => {
    const s = lagging(4);
    const file = historyFile(s);
    for (let k = 5; k <= 300; k++) s.checkpoint(convo(k));
    const onDisk = (readJson(file) as Message[]).length;
    expect(onDisk).toBeLessThan(301);
    expect(Session.open(d.data, s.id).history()).toEqual(convo(300));
    s.flush();
    expect(readJson(file)).toEqual(convo(300));
    expect(s.meta.history_file?.log_size).toBe(logSize(s));
    const ino = inode(file);
    s.flush();
    expect(inode(file)).toBe(ino);
  });

  test("the bytes rewritten stay proportional to the bytes logged", () => {
    const s = lagging(4);
    const file = historyFile(s);
    let rewritten = 0;
    let ino = inode(file);
    const logStart = logSize(s);
    for (let k = 5; k <= 400; k++) {
      s.checkpoint(convo(k));
      if (inode(file) !== ino) {
        ino = inode(file);
        rewritten += statSync(file).size;
      }
    }
    const logged = logSize(s) - logStart;
    // Rewritten once the log has grown by the file's size: at most about as much as was logged.
    expect(rewritten).toBeGreaterThan(0);
    expect(rewritten).toBeLessThanOrEqual(2 * logged + HISTORY_REWRITE_MIN_BYTES * 2);
    // A file rewritten at every checkpoint would have cost the sum of all history sizes, far more.
    const everyTime = Array.from({ length: 396 }, (_, i) => formatHistory(convo(i + 5)).length).reduce(
      (a, b) => a + b,
    );
    expect(rewritten * 20).toBeLessThan(everyTime);
  });

  test("a compaction rewrites history.json at once", () => {
    const s = lagging(10);
    const after = [BIG_SYSTEM, { role: "user" as const, content: "summary" }, ...convo(10).slice(-2)];
    s.commitCompaction(convo(10), after, { reason: "manual" });
    expect(readJson(historyFile(s))).toEqual(after);
    expect(readJson(join(s.dir, ".precompact.json"))).toEqual(convo(10));
    expect(s.meta.history_file?.log_size).toBe(logSize(s));
  });
});

describe("someone else's history.json still wins", () => {
  test("edited by hand while lagging: it wins, and the next checkpoint logs it as a base event", () => {
    const s = lagging(4);
    for (let k = 5; k <= 12; k++) s.checkpoint(convo(k));
    const edited = [BIG_SYSTEM, { role: "user" as const, content: "rewritten by hand" }];
    writeFileSync(historyFile(s), formatHistory(edited));
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(edited);
    const next = [...edited, { role: "assistant" as const, content: "ok" }];
    o.checkpoint(next);
    expect(
      readEvents(s.dir)
        .map((e) => e.type)
        .slice(-2),
    ).toEqual(["base", "message"]);
    // The base forced a rewrite: the file, the record and the log agree again.
    expect(readJson(historyFile(s))).toEqual(next);
    expect(replayed(s)).toEqual(next);
    expect(Session.open(d.data, s.id).history()).toEqual(next);
  });

  test("edited to an earlier state of the log, after the last append: the edit wins", () => {
    const s = lagging(4);
    for (let k = 5; k <= 12; k++) s.checkpoint(convo(k));
    // Cut back to message 8 (a state the log passed through), saved now: a person undoing turns.
    writeFileSync(historyFile(s), formatHistory(convo(8)));
    const later = new Date(Date.now() + 5000);
    utimesSync(historyFile(s), later, later);
    expect(Session.open(d.data, s.id).history()).toEqual(convo(8));
  });

  test("an edit that is no state of the log wins even with an old mtime", () => {
    const s = lagging(4);
    for (let k = 5; k <= 12; k++) s.checkpoint(convo(k));
    const edited = [BIG_SYSTEM, { role: "user" as const, content: "another edit" }];
    writeFileSync(historyFile(s), formatHistory(edited));
    const old = new Date(Date.now() - 60_000);
    utimesSync(historyFile(s), old, old);
    expect(Session.open(d.data, s.id).history()).toEqual(edited);
  });
});

describe("without a usable record, the log still wins over a stale file", () => {
  test("meta.json lost while history.json lagged: rebuilt, and the log's messages come back", () => {
    const s = lagging(4);
    for (let k = 5; k <= 20; k++) s.checkpoint(convo(k));
    rmSync(join(s.dir, "meta.json"));
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(20));
    expect(readJson(historyFile(s))).toEqual(convo(20));
    expect(readEvents(s.dir).at(-1)).toMatchObject({ type: "recovered", messages: 21 });
    expect(o.meta.history_file?.log_size).toBeLessThanOrEqual(logSize(s));
    expect(Session.open(d.data, s.id).history()).toEqual(convo(20));
  });

  test("a crash between the rewrite and meta.json: the new file is the log's end, taken as is", () => {
    const s = lagging(4);
    for (let k = 5; k <= 12; k++) s.checkpoint(convo(k));
    const metaBefore = readFileSync(join(s.dir, "meta.json"), "utf8");
    // What a rewrite whose meta.json write never happened leaves: a new file holding the log's end.
    writeFileSync(`${historyFile(s)}.new`, formatHistory(convo(12)));
    rmSync(historyFile(s));
    writeFileSync(historyFile(s), readFileSync(`${historyFile(s)}.new`));
    rmSync(`${historyFile(s)}.new`);
    const old = new Date(Date.now() - 5000);
    utimesSync(historyFile(s), old, old);
    expect(readFileSync(join(s.dir, "meta.json"), "utf8")).toBe(metaBefore);
    const eventsBefore = readEvents(s.dir).length;
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(12));
    expect(readEvents(s.dir).length).toBe(eventsBefore);
    // The record now names the file on disk.
    expect(o.meta.history_file?.ino).toBe(inode(historyFile(s)));
  });

  test("a torn last line after the recorded point is ignored, the rest replayed", () => {
    const s = lagging(4);
    for (let k = 5; k <= 9; k++) s.checkpoint(convo(k));
    writeFileSync(join(s.dir, "events.jsonl"), '{"ts":"x","type":"mess', { flag: "a" });
    expect(Session.open(d.data, s.id).history()).toEqual(convo(9));
  });
});
