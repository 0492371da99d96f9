// Opening a session reconciles history.json (a cache) with events.jsonl (the record): a checkpoint the
// log holds but history.json missed is recovered; a history.json edited by hand after the last append
// still wins.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { EventsLog, replayEvents } from "../../src/session/events-log.ts";
import { formatHistory } from "../../src/session/history-file.ts";
import { Session } from "../../src/session/session.ts";
import { expectedMessage, SYSTEM } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

const h3 = [SYSTEM, expectedMessage(1), expectedMessage(2), expectedMessage(3)];
const h4 = [...h3, expectedMessage(4)];

test("history.json one checkpoint behind the log (killed before its rename): the log's messages come back", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  s.checkpoint(h3);
  const file = join(s.dir, "history.json");
  s.checkpoint(h4);
  // What a kill between the log's fsync and the rename leaves: the older file, written before the append.
  writeFileSync(file, formatHistory(h3));
  const old = new Date(Date.now() - 5000);
  utimesSync(file, old, old);
  const r = Session.open(d.data, s.id);
  expect(r.history()).toEqual(h4);
  expect(readEvents(s.dir).at(-1)).toMatchObject({ type: "recovered", messages: 5 });
  expect(r.meta.messages).toBe(5);
});

test("history.json edited by hand after the last append wins, and is logged as a base event", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  s.checkpoint(h4);
  const file = join(s.dir, "history.json");
  writeFileSync(file, formatHistory(h3));
  const later = new Date(Date.now() + 5000);
  utimesSync(file, later, later);
  const r = Session.open(d.data, s.id);
  expect(r.history()).toEqual(h3);
  r.checkpoint([...h3, expectedMessage(8)]);
  expect(
    readEvents(s.dir)
      .map((e) => e.type)
      .slice(-2),
  ).toEqual(["base", "message"]);
});

test("history.json that is no state of the log is an edit, even when older", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  s.checkpoint(h4);
  const edited = [SYSTEM, { role: "user" as const, content: "rewritten by hand" }];
  const file = join(s.dir, "history.json");
  writeFileSync(file, formatHistory(edited));
  const old = new Date(Date.now() - 5000);
  utimesSync(file, old, old);
  expect(Session.open(d.data, s.id).history()).toEqual(edited);
});

test("an empty history.json (a power cut after the rename) is rebuilt from the log", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  s.checkpoint(h4);
  writeFileSync(join(s.dir, "history.json"), "");
  expect(Session.open(d.data, s.id).history()).toEqual(h4);
});

test("a long log is read from its end: a stale history.json is still repaired, and replay matches", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  const big = (n: number) => ({ role: "user" as const, content: `big ${n} ${"b".repeat(300_000)}` });
  const answer = (n: number) => ({ role: "assistant" as const, content: `answer ${n}` });
  let h: Message[] = [SYSTEM];
  for (let n = 1; n <= 12; n++) {
    h = [...h, big(n), answer(n)];
    s.checkpoint(h);
    if (n % 4 === 0) {
      const after = [SYSTEM, { role: "user" as const, content: `summary to ${n}` }, ...h.slice(-2)];
      s.commitCompaction(h, after, { reason: "manual" });
      h = after;
    }
  }
  const file = join(s.dir, "history.json");
  const stale = formatHistory(h);
  h = [...h, big(13), answer(13)];
  s.checkpoint(h);
  writeFileSync(file, stale);
  const old = new Date(Date.now() - 5000);
  utimesSync(file, old, old);
  const tail = new EventsLog(join(s.dir, "events.jsonl")).tailLines(2);
  expect(tail.whole).toBe(false);
  const r = Session.open(d.data, s.id);
  expect(r.history()).toEqual(h);
  expect(r.meta.compactions).toBe(3);
  expect(replayEvents(new EventsLog(join(s.dir, "events.jsonl")).read().events).history).toEqual(h);
});
