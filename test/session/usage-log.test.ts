// A session's token and cost totals: each model request is a `usage` line in the log (no meta.json
// rename per request, which rode on every turn's fsync); meta.json's total catches up when it is next
// written, and whoever opens or lists the session counts the usage lines logged after it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { Session } from "../../src/session/session.ts";
import { listSessions } from "../../src/session/store.ts";
import { expectedMessage, SYSTEM } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

const convo = (n: number): Message[] => [
  SYSTEM,
  ...Array.from({ length: n }, (_, i) => expectedMessage(i + 1)),
];
const metaText = (s: Session) => readFileSync(join(s.dir, "meta.json"), "utf8");
const TOTAL = { input_tokens: 350, output_tokens: 35, cost_usd: 0.75 };

/** A session with one checkpoint and three requests counted (one without a price); never flushed. */
function used(): Session {
  const s = Session.create({ dataDir: d.data, workspace: d.ws, provider: "openai", model: "gpt-x" });
  s.checkpoint(convo(2));
  const before = metaText(s);
  s.addUsage(100, 10, 0.5);
  s.addUsage(200, 20);
  s.addUsage(50, 5, 0.25);
  expect(metaText(s)).toBe(before);
  return s;
}

test("each request is a usage line in the log; meta.json is not rewritten for it", () => {
  const s = used();
  expect(s.usage).toEqual(TOTAL);
  const lines = readEvents(s.dir).filter((e) => e.type === "usage");
  expect(lines.map(({ ts: _, ...rest }) => rest)).toEqual([
    { type: "usage", input_tokens: 100, output_tokens: 10, cost_usd: 0.5 },
    { type: "usage", input_tokens: 200, output_tokens: 20 },
    { type: "usage", input_tokens: 50, output_tokens: 5, cost_usd: 0.25 },
  ]);
});

test("a session never closed (kill -9) opens and lists with every request counted", () => {
  const s = used();
  expect(Session.open(d.data, s.id).usage).toEqual(TOTAL);
  expect(listSessions(d.data, d.ws)[0]?.usage).toEqual(TOTAL);
});

test("after a flush meta.json holds the total, and opening does not count the lines twice", () => {
  const s = used();
  s.flush();
  expect(JSON.parse(metaText(s)).usage).toEqual(TOTAL);
  const again = Session.open(d.data, s.id);
  expect(again.usage).toEqual(TOTAL);
  again.addUsage(1, 1, 0.25);
  expect(Session.open(d.data, s.id).usage).toEqual({ input_tokens: 351, output_tokens: 36, cost_usd: 1 });
});

test("a meta.json rebuilt from the log keeps the totals", () => {
  const s = used();
  rmSync(join(s.dir, "meta.json"));
  expect(Session.open(d.data, s.id).usage).toEqual(TOTAL);
});

test("modules cannot write usage lines of their own (appendEvent)", () => {
  const s = used();
  expect(() => s.appendEvent("usage", { input_tokens: 1, output_tokens: 1 })).toThrow(
    /written by the session itself/,
  );
});
