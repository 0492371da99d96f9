// history.json and meta.json are not renamed at every checkpoint, even in a short session: each rename
// rode on the turn's fsync. The log is the record, so what a user sees must not depend on them: the
// listing (message count, compactions, last update, order) is counted to the log's end, reopening is
// exact, and closing brings both files up to date.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { HISTORY_REWRITE_MIN_BYTES, META_REFRESH_BYTES, Session } from "../../src/session/session.ts";
import { expectedMessage, SYSTEM, summaryMessage } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, nextMillisecond, readEvents, readJson } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

/** The same message objects every time (as the agent's history holds them). */
const ALL: Message[] = [SYSTEM, ...Array.from({ length: 400 }, (_, i) => expectedMessage(i + 1))];
const convo = (n: number) => ALL.slice(0, n + 1);
const create = () => Session.create({ dataDir: d.data, workspace: d.ws, provider: "openai", model: "m" });
const inode = (s: Session, name: string) => statSync(join(s.dir, name)).ino;
const logSize = (s: Session) => statSync(join(s.dir, "events.jsonl")).size;
const listed = (id: string) => Session.list(d.data, d.ws).find((m) => m.id === id);

/** What a kill -9 before meta.json's rename leaves: the file as it was before `f` ran. */
function withOldMeta(s: Session, f: () => void): void {
  const meta = readFileSync(join(s.dir, "meta.json"));
  f();
  writeFileSync(join(s.dir, "meta.json"), meta);
}

describe("the caches are renamed once per 64 KiB of log", () => {
  test("history.json and meta.json: rewritten only after the log grew, a few times in 400 checkpoints", () => {
    const s = create();
    const rewrites = { "history.json": [] as number[], "meta.json": [] as number[] };
    const last = { "history.json": 0, "meta.json": 0 };
    for (let k = 1; k <= 400; k++) {
      s.checkpoint(convo(k));
      for (const name of ["history.json", "meta.json"] as const) {
        const ino = inode(s, name);
        if (ino !== last[name]) rewrites[name].push(logSize(s));
        last[name] = ino;
      }
    }
    const h = rewrites["history.json"];
    const m = rewrites["meta.json"];
    // Written at the first checkpoint, then only once the log grew by the file's size or 64 KiB.
    expect(h.length).toBeGreaterThan(2);
    expect(h.length).toBeLessThan(400 / 20);
    for (let i = 1; i < h.length; i++)
      expect((h[i] as number) - (h[i - 1] as number)).toBeGreaterThanOrEqual(HISTORY_REWRITE_MIN_BYTES);
    // meta.json with it, and in between at the latest every 64 KiB (plus the append that crossed it), so
    // a listing never reads more of the log than that.
    expect(m.length).toBeGreaterThanOrEqual(h.length);
    expect(m.length).toBeLessThan(400 / 10);
    const append = 4 * 1024;
    for (let i = 1; i < m.length; i++)
      expect((m[i] as number) - (m[i - 1] as number)).toBeLessThanOrEqual(META_REFRESH_BYTES + append);
    expect(logSize(s) - (m.at(-1) as number)).toBeLessThanOrEqual(META_REFRESH_BYTES + append);
    // Meanwhile the listing and a reopen are exact, and closing writes both.
    expect(listed(s.id)?.messages).toBe(401);
    expect(Session.open(d.data, s.id).history()).toEqual(convo(400));
    s.flush();
    expect(readJson(join(s.dir, "history.json"))).toEqual(convo(400));
    expect(readJson(join(s.dir, "meta.json"))).toMatchObject({ messages: 401, log_size: logSize(s) });
  });
});

describe("the listing is counted to the log's end", () => {
  test("a running session sorts by its last checkpoint, not by when meta.json was written", () => {
    const a = create();
    a.checkpoint(convo(1));
    nextMillisecond();
    const b = create();
    b.checkpoint(convo(1));
    const metaOfA = readFileSync(join(a.dir, "meta.json"), "utf8");
    nextMillisecond();
    a.checkpoint(convo(4));
    // Only the log changed: a is the most recently updated, with 5 messages.
    expect(readFileSync(join(a.dir, "meta.json"), "utf8")).toBe(metaOfA);
    expect(Session.list(d.data, d.ws).map((m) => [m.id, m.messages])).toEqual([
      [a.id, 5],
      [b.id, 2],
    ]);
    const lastMessage = readEvents(a.dir).findLast((e) => e.type === "message");
    expect(listed(a.id)?.updated).toBe(lastMessage?.ts as string);
  });

  test("killed before meta.json's rename after a compaction, a cut-back and an edit: all counted", () => {
    const s = create();
    s.checkpoint(convo(8));
    const after = [SYSTEM, summaryMessage(4), ...convo(8).slice(5)];
    withOldMeta(s, () => s.commitCompaction(convo(8), after, { reason: "manual" }));
    expect(listed(s.id)).toMatchObject({ messages: after.length, compactions: 1 });
    withOldMeta(s, () => s.checkpoint(after.slice(0, 3)));
    expect(listed(s.id)).toMatchObject({ messages: 3, compactions: 1 });
    // An edit by hand is logged as a base event when the session next writes.
    const edited = [SYSTEM, { role: "user" as const, content: "rewritten by hand" }];
    writeFileSync(join(s.dir, "history.json"), `${JSON.stringify(edited)}\n`);
    const o = Session.open(d.data, s.id);
    withOldMeta(o, () => o.checkpoint([...edited, { role: "assistant", content: "ok" }]));
    expect(readEvents(s.dir).map((e) => e.type)).toContain("base");
    expect(listed(s.id)).toMatchObject({ messages: 3, compactions: 1 });
    expect(Session.open(d.data, s.id).history()).toHaveLength(3);
  });

  test("a torn last line counts nothing; a log shorter than meta.json measured leaves meta.json's counts", () => {
    const s = create();
    s.checkpoint(convo(4));
    s.checkpoint(convo(6));
    appendFileSync(join(s.dir, "events.jsonl"), '{"ts":"9999","type":"message","index":7,"mess');
    expect(listed(s.id)).toMatchObject({ messages: 7 });
    const meta = readJson(join(s.dir, "meta.json")) as Record<string, unknown>;
    writeFileSync(join(s.dir, "meta.json"), JSON.stringify({ ...meta, log_size: 10_000_000 }));
    expect(listed(s.id)).toMatchObject({ messages: 5, updated: meta.updated });
  });

  test("reopening a killed session takes its counts and last update from the log, writing nothing", () => {
    const s = create();
    s.checkpoint(convo(2));
    nextMillisecond();
    s.checkpoint(convo(6));
    const lastMessage = readEvents(s.dir).findLast((e) => e.type === "message")?.ts as string;
    const metaText = readFileSync(join(s.dir, "meta.json"), "utf8");
    expect(JSON.parse(metaText)).toMatchObject({ messages: 3 });
    expect(JSON.parse(metaText).updated < lastMessage).toBe(true);
    const o = Session.open(d.data, s.id);
    expect(o.meta).toMatchObject({ messages: 7, updated: lastMessage });
    // Left as it is (the session could be running in another process); closing the reopened one writes it.
    expect(readFileSync(join(s.dir, "meta.json"), "utf8")).toBe(metaText);
    o.flush();
    expect(readJson(join(s.dir, "meta.json"))).toMatchObject({ messages: 7, updated: lastMessage });
  });

  test("an older meta.json (no log size) behind its log is corrected on open", () => {
    const s = create();
    s.checkpoint(convo(2));
    const meta = readJson(join(s.dir, "meta.json")) as Record<string, unknown>;
    s.checkpoint(convo(6));
    const { log_size: _, ...older } = meta;
    writeFileSync(join(s.dir, "meta.json"), JSON.stringify(older));
    expect(listed(s.id)?.messages).toBe(3);
    Session.open(d.data, s.id);
    expect(listed(s.id)?.messages).toBe(7);
    expect(readJson(join(s.dir, "meta.json"))).toMatchObject({ messages: 7, log_size: logSize(s) });
  });
});
