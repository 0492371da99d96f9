// .precompact.json without rewriting megabytes: when the history a compaction replaces is exactly the
// checkpoint in history.json, the file is hard-linked; whenever that is not certain, it is written.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { formatHistory } from "../../src/session/history-file.ts";
import { Session } from "../../src/session/session.ts";
import { expectedMessage, SYSTEM, summaryMessage } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, readJson } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

const record = { reason: "manual", route: "local", cut: 5 };

function convo(n: number): Message[] {
  return [SYSTEM, ...Array.from({ length: n }, (_, i) => expectedMessage(i + 1))];
}

function create(): Session {
  return Session.create({ dataDir: d.data, workspace: d.ws, provider: "openai", model: "gpt-x" });
}

const compacted = (before: Message[]) => [SYSTEM, summaryMessage(4), ...before.slice(5)];
const inode = (path: string) => statSync(path).ino;
const files = (s: Session) => ({
  history: join(s.dir, "history.json"),
  precompact: join(s.dir, ".precompact.json"),
});

/** No temp names left in the session directory. */
function expectNoTempFiles(s: Session): void {
  expect(readdirSync(s.dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
}

describe(".precompact.json is a hard link to the checkpoint on disk", () => {
  test("the same messages as the last checkpoint: linked, byte for byte the old file", () => {
    const s = create();
    const h = convo(8);
    s.checkpoint(h);
    const f = files(s);
    const oldInode = inode(f.history);
    const oldText = readFileSync(f.history, "utf8");
    s.commitCompaction(h, compacted(h), record);
    expect(inode(f.precompact)).toBe(oldInode);
    expect(readFileSync(f.precompact, "utf8")).toBe(oldText);
    // history.json was replaced (a new file), so the old content now has one name left.
    expect(inode(f.history)).not.toBe(oldInode);
    expect(statSync(f.precompact).nlink).toBe(1);
    expect(readJson(f.history)).toEqual(compacted(h));
    expectNoTempFiles(s);
  });

  test("equal copies of the messages count as the same checkpoint", () => {
    const s = create();
    s.checkpoint(convo(8));
    const oldInode = inode(files(s).history);
    s.commitCompaction(convo(8), compacted(convo(8)), record);
    expect(inode(files(s).precompact)).toBe(oldInode);
  });

  test("a reopened session links the checkpoint it read", () => {
    const s = create();
    s.checkpoint(convo(8));
    const oldInode = inode(files(s).history);
    const o = Session.open(d.data, s.id);
    const h = o.history();
    o.commitCompaction(h, compacted(h), record);
    expect(inode(files(o).precompact)).toBe(oldInode);
    expect(readJson(files(o).precompact)).toEqual(convo(8));
  });

  test("a compaction straight after another links the checkpoint the first one wrote", () => {
    const s = create();
    const first = convo(8);
    s.checkpoint(first);
    s.commitCompaction(first, compacted(first), record);
    const firstResult = inode(files(s).history);
    const next = [SYSTEM, summaryMessage(8)];
    s.commitCompaction(compacted(first), next, record);
    expect(inode(files(s).precompact)).toBe(firstResult);
    expect(readJson(files(s).precompact)).toEqual(compacted(first));
    expect(Session.open(d.data, s.id).history()).toEqual(next);
    expectNoTempFiles(s);
  });

  test("a closed session's checkpoint is current again: the next compaction links it", () => {
    const s = create();
    s.checkpoint(convo(4));
    s.checkpoint(convo(8));
    s.flush();
    const closed = inode(files(s).history);
    s.commitCompaction(convo(8), compacted(convo(8)), record);
    expect(inode(files(s).precompact)).toBe(closed);
    expect(readJson(files(s).precompact)).toEqual(convo(8));
  });
});

describe("falls back to writing the file", () => {
  test("checkpoints since history.json was written (it lags the log): written, each compaction its own", () => {
    const s = create();
    const first = convo(8);
    s.checkpoint(first);
    s.commitCompaction(first, compacted(first), record);
    const second = [...compacted(first), ...[9, 10, 11, 12].map(expectedMessage)];
    s.checkpoint(second);
    // The checkpoint went to the log only: history.json still holds the first compaction's result.
    const lagging = inode(files(s).history);
    expect(readJson(files(s).history)).toEqual(compacted(first));
    const next = [SYSTEM, summaryMessage(12)];
    s.commitCompaction(second, next, record);
    expect(inode(files(s).precompact)).not.toBe(lagging);
    expect(readFileSync(files(s).precompact, "utf8")).toBe(formatHistory(second));
    expect(Session.open(d.data, s.id).history()).toEqual(next);
    expectNoTempFiles(s);
  });

  test("`before` has messages the checkpoint does not: written, and equal to `before`", () => {
    const s = create();
    s.checkpoint(convo(4));
    const oldInode = inode(files(s).history);
    const before = convo(8);
    s.commitCompaction(before, compacted(before), record);
    expect(inode(files(s).precompact)).not.toBe(oldInode);
    expect(readFileSync(files(s).precompact, "utf8")).toBe(formatHistory(before));
  });

  test("`before` differs in one message from the checkpoint: written", () => {
    const s = create();
    s.checkpoint(convo(8));
    const before = convo(8);
    before[3] = { ...(before[3] as Message), content: "changed after the checkpoint" } as Message;
    s.commitCompaction(before, compacted(before), record);
    expect(readFileSync(files(s).precompact, "utf8")).toBe(formatHistory(before));
  });

  test("history.json changed behind the session's back: `before` is written, not the edited file", () => {
    const s = create();
    const h = convo(8);
    s.checkpoint(h);
    // Same messages, other bytes (one line): not the file this session wrote.
    writeFileSync(files(s).history, JSON.stringify(h));
    s.commitCompaction(h, compacted(h), record);
    expect(readFileSync(files(s).precompact, "utf8")).toBe(formatHistory(h));
    expectNoTempFiles(s);
  });

  test("history.json missing: `before` is written", () => {
    const s = create();
    const h = convo(8);
    s.checkpoint(h);
    rmSync(files(s).history);
    s.commitCompaction(h, compacted(h), record);
    expect(readFileSync(files(s).precompact, "utf8")).toBe(formatHistory(h));
    expect(readJson(files(s).history)).toEqual(compacted(h));
  });
});
