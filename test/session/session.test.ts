// Sessions on disk: create, checkpoint, open, list, compaction files, the event log and recovery.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/contract/errors.ts";
import type { Message } from "../../src/contract/history.ts";
import { HistoryError } from "../../src/lib/validate-history.ts";
import { Session } from "../../src/session/session.ts";
import { expectedMessage, SYSTEM, summaryMessage } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, nextMillisecond, readEvents, readJson } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

/** system + messages 1..n of the deterministic conversation */
function convo(n: number): Message[] {
  return [SYSTEM, ...Array.from({ length: n }, (_, i) => expectedMessage(i + 1))];
}

const logSize = (s: Session) => statSync(join(s.dir, "events.jsonl")).size;

function create(): Session {
  return Session.create({ dataDir: d.data, workspace: d.ws, provider: "openai", model: "gpt-x" });
}

function openError(id: string): UserError {
  try {
    Session.open(d.data, id);
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error("expected a UserError");
}

describe("create", () => {
  test("a directory with meta.json and a session event; empty history", () => {
    const s = create();
    expect(s.id).toMatch(/^\d{8}T\d{9}-[0-9a-f]{8}$/);
    expect(s.dir).toBe(join(d.data, s.id));
    expect(s.history()).toEqual([]);
    expect(readJson(join(s.dir, "meta.json"))).toEqual(s.meta);
    expect(s.meta).toMatchObject({
      id: s.id,
      workspace: d.ws,
      provider: "openai",
      model: "gpt-x",
      messages: 0,
      compactions: 0,
    });
    expect(readEvents(s.dir)).toEqual([
      { ts: s.meta.created, type: "session", id: s.id, workspace: d.ws, provider: "openai", model: "gpt-x" },
    ]);
    expect(statSync(s.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(s.dir, "meta.json")).mode & 0o777).toBe(0o600);
  });

  test("ids are unique and sort by creation time", () => {
    const ids = Array.from({ length: 20 }, () => create().id);
    expect(new Set(ids).size).toBe(20);
    const a = create().id;
    nextMillisecond();
    const b = create().id;
    expect(a < b).toBe(true);
  });
});

describe("checkpoint", () => {
  test("logs each new message once; history.json and meta.json are written at the first, then lag", () => {
    const s = create();
    s.checkpoint(convo(1));
    s.checkpoint(convo(4));
    const msgs = readEvents(s.dir).filter((e) => e.type === "message");
    expect(msgs.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(msgs.map((e) => e.message)).toEqual(convo(4));
    expect(s.history()).toEqual(convo(4));
    expect(s.meta.messages).toBe(5);
    expect(s.meta.title).toBe("question 1");
    // On disk the caches hold the first checkpoint (and its title); the log holds the rest.
    expect(readJson(join(s.dir, "history.json"))).toEqual(convo(1));
    const meta = readJson(join(s.dir, "meta.json")) as { title: string; messages: number };
    expect(meta).toMatchObject({ title: "question 1", messages: 2 });
    // What the listing and a reopen see is the log's end.
    expect(Session.list(d.data, d.ws)[0]).toMatchObject({ id: s.id, messages: 5 });
    expect(Session.open(d.data, s.id).history()).toEqual(convo(4));
    // Closing brings both up to the log.
    s.flush();
    expect(readJson(join(s.dir, "history.json"))).toEqual(convo(4));
    expect(readJson(join(s.dir, "meta.json"))).toMatchObject({ messages: 5, log_size: logSize(s) });
  });

  test("an unchanged history logs nothing", () => {
    const s = create();
    s.checkpoint(convo(2));
    const before = readFileSync(join(s.dir, "events.jsonl"), "utf8");
    s.checkpoint(convo(2));
    expect(readFileSync(join(s.dir, "events.jsonl"), "utf8")).toBe(before);
  });

  test("a batch in progress may be checkpointed", () => {
    const s = create();
    s.checkpoint(convo(2)); // the assistant's tool call is not answered yet
    expect(Session.open(d.data, s.id).history()).toEqual(convo(2));
  });

  test("an invalid history is refused and nothing is written", () => {
    const s = create();
    s.checkpoint(convo(4));
    const events = readFileSync(join(s.dir, "events.jsonl"), "utf8");
    const bad = [...convo(4), { role: "tool", tool_call_id: "nobody", content: "x" } as Message];
    expect(() => s.checkpoint(bad)).toThrow(HistoryError);
    expect(() => s.checkpoint([expectedMessage(1)])).toThrow(/history\[0\]/);
    expect(readFileSync(join(s.dir, "events.jsonl"), "utf8")).toBe(events);
    expect(Session.open(d.data, s.id).history()).toEqual(convo(4));
  });

  test("changed or removed messages are logged so replay matches", () => {
    const s = create();
    s.checkpoint(convo(4));
    const edited = [...convo(3), { role: "assistant", content: "a different answer" } as Message];
    s.checkpoint(edited);
    s.checkpoint(convo(2)); // cut back without new messages
    const tail = readEvents(s.dir).slice(-2);
    expect(tail[0]).toMatchObject({ type: "message", index: 4, message: { content: "a different answer" } });
    expect(tail[1]).toMatchObject({ type: "truncate", length: 3 });
    rmSync(join(s.dir, "history.json"));
    expect(Session.open(d.data, s.id).history()).toEqual(convo(2));
  });

  test("messages may be copies: only real differences are logged", () => {
    const s = create();
    s.checkpoint(convo(2));
    s.checkpoint(structuredClone(convo(3)));
    expect(
      readEvents(s.dir)
        .filter((e) => e.type === "message")
        .map((e) => e.index),
    ).toEqual([0, 1, 2, 3]);
  });
});

describe("open", () => {
  test("reopens the last checkpoint, by full id or unique prefix", () => {
    const s = create();
    s.checkpoint(convo(8));
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(8));
    expect(o.meta).toEqual(s.meta);
    expect(Session.open(d.data, s.id.slice(0, s.id.length - 3)).id).toBe(s.id);
  });

  test("missing, ambiguous and malformed ids are one-line user errors", () => {
    const a = create();
    create();
    const missing = openError("19990101T000000000-00000000");
    expect(missing.exitCode).toBe(2);
    expect(missing.message).toBe(
      `no session "19990101T000000000-00000000" in ${d.data}; list this workspace's sessions with \`i sessions\``,
    );
    expect(openError(a.id.slice(0, 4)).message).toMatch(/is ambiguous: 2 sessions in .* start with it/);
    expect(openError("../etc").message).toStartWith('session id "../etc" is not valid');
  });

  test("malformed history.json: one line naming the file and the fix", () => {
    const s = create();
    s.checkpoint(convo(4));
    const file = join(s.dir, "history.json");
    writeFileSync(file, "[{ oops");
    const e = openError(s.id);
    expect(e.exitCode).toBe(2);
    expect(e.message).toStartWith(`${file}: malformed JSON (`);
    expect(e.message).toEndWith(
      "; fix it by hand, or delete it to rebuild the session from events.jsonl next to it",
    );
    expect(e.message).not.toContain("\n");
    writeFileSync(file, JSON.stringify([{ role: "user", content: "no system message" }]));
    expect(openError(s.id).message).toBe(
      `${file}: not a valid history: history[0]: role is "user"; history[0] must be the system message; fix it by hand, or delete it to rebuild the session from events.jsonl next to it`,
    );
  });

  test("deleting history.json rebuilds the session from events.jsonl", () => {
    const s = create();
    s.checkpoint(convo(6));
    rmSync(join(s.dir, "history.json"));
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(6));
    expect(readJson(join(s.dir, "history.json"))).toEqual(convo(6));
    expect(readEvents(s.dir).at(-1)).toMatchObject({ type: "recovered", messages: 7 });
  });

  test("a missing or damaged meta.json is rebuilt from events.jsonl", () => {
    const s = create();
    s.checkpoint(convo(5));
    writeFileSync(join(s.dir, "meta.json"), "{");
    const o = Session.open(d.data, s.id);
    expect(o.meta).toMatchObject({
      id: s.id,
      workspace: d.ws,
      provider: "openai",
      model: "gpt-x",
      messages: 6,
      title: "question 1",
    });
    expect(readJson(join(s.dir, "meta.json"))).toEqual(o.meta);
    rmSync(join(s.dir, "meta.json"));
    expect(Session.list(d.data, d.ws).map((m) => m.id)).toEqual([s.id]);
  });

  test("a directory with neither meta.json nor events is not a session", () => {
    const s = create();
    rmSync(join(s.dir, "meta.json"));
    rmSync(join(s.dir, "events.jsonl"));
    expect(openError(s.id).message).toStartWith(`${s.dir}: not a usable session`);
  });
});

describe("events.jsonl", () => {
  test("a torn last line is tolerated, and the next append starts on a fresh line", () => {
    const s = create();
    s.checkpoint(convo(3));
    appendFileSync(
      join(s.dir, "events.jsonl"),
      '{"ts":"2026-01-01T00:00:00.000Z","type":"message","index":4,"mess',
    );
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(convo(3));
    o.checkpoint(convo(5));
    const lines = readFileSync(join(s.dir, "events.jsonl"), "utf8").split("\n");
    expect(lines.filter((l) => l.includes('"mess') && !l.includes('"message":')).length).toBe(1);
    rmSync(join(s.dir, "history.json"));
    expect(Session.open(d.data, s.id).history()).toEqual(convo(5));
  });

  test("appendEvent writes {ts, type, ...data}; the session's own types are refused", () => {
    const s = create();
    s.appendEvent("note", { input_tokens: 10, output_tokens: 2 });
    const last = readEvents(s.dir).at(-1) as Record<string, unknown>;
    expect(last).toMatchObject({ type: "note", input_tokens: 10, output_tokens: 2 });
    expect(typeof last.ts).toBe("string");
    expect(() => s.appendEvent("message", {})).toThrow(/written by the session itself/);
    expect(() => s.appendEvent("x", { ts: "no" })).toThrow(/may not set/);
  });
});

describe("compaction", () => {
  const record = { reason: "manual", route: "local", cut: 5 };

  test("precompact gets the old history, history.json the new one, and an event records it", () => {
    const s = create();
    s.checkpoint(convo(8));
    const before = convo(8);
    const after = [SYSTEM, summaryMessage(4), ...before.slice(5)];
    s.commitCompaction(before, after, record);
    expect(readJson(join(s.dir, ".precompact.json"))).toEqual(before);
    expect(readJson(join(s.dir, "history.json"))).toEqual(after);
    const ev = readEvents(s.dir).at(-1);
    expect(ev).toMatchObject({ type: "compaction", messages_before: 9, record, history: after });
    expect(s.meta).toMatchObject({ compactions: 1, messages: 6 });
    expect(s.meta.title).toBe("question 1");
    expect(Session.open(d.data, s.id).history()).toEqual(after);
  });

  test("messages of `before` that were never checkpointed are logged first", () => {
    const s = create();
    s.checkpoint(convo(4));
    const before = convo(8);
    s.commitCompaction(before, [SYSTEM, summaryMessage(4), ...before.slice(5)], record);
    const logged = readEvents(s.dir)
      .filter((e) => e.type === "message")
      .map((e) => e.index);
    expect(logged).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test("an invalid result is refused and nothing changes", () => {
    const s = create();
    s.checkpoint(convo(8));
    const bad = [SYSTEM, convo(8)[7] as Message];
    expect(() => s.commitCompaction(convo(8), bad, record)).toThrow(HistoryError);
    expect(existsSync(join(s.dir, ".precompact.json"))).toBe(false);
    expect(Session.open(d.data, s.id).history()).toEqual(convo(8));
  });

  test("replay follows compactions and later messages", () => {
    const s = create();
    s.checkpoint(convo(8));
    const after = [SYSTEM, summaryMessage(4), ...convo(8).slice(5)];
    s.commitCompaction(convo(8), after, record);
    const more = [...after, expectedMessage(9), expectedMessage(10)];
    s.checkpoint(more);
    rmSync(join(s.dir, "history.json"));
    expect(Session.open(d.data, s.id).history()).toEqual(more);
  });

  test("a crash between history.json and the compaction event does not mislead replay later", () => {
    const s = create();
    s.checkpoint(convo(8));
    const after = [SYSTEM, summaryMessage(4), ...convo(8).slice(5)];
    s.commitCompaction(convo(8), after, record);
    // Simulate the crash: the compaction event never reached the log.
    const file = join(s.dir, "events.jsonl");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    writeFileSync(file, `${lines.slice(0, -1).join("\n")}\n`);
    const o = Session.open(d.data, s.id);
    expect(o.history()).toEqual(after);
    const more = [...after, expectedMessage(9)];
    o.checkpoint(more);
    rmSync(join(s.dir, "history.json"));
    expect(Session.open(d.data, s.id).history()).toEqual(more);
  });
});

describe("list and newest", () => {
  test("sessions of this workspace only, most recently updated first", () => {
    const other = join(d.root, "other");
    const a = create();
    nextMillisecond();
    const b = create();
    nextMillisecond();
    const c = Session.create({ dataDir: d.data, workspace: other });
    b.checkpoint(convo(1));
    c.checkpoint(convo(1));
    nextMillisecond();
    a.checkpoint(convo(1));
    expect(Session.list(d.data, d.ws).map((m) => m.id)).toEqual([a.id, b.id]);
    expect(Session.list(d.data, other).map((m) => m.id)).toEqual([c.id]);
    expect(Session.newest(d.data, d.ws)?.id).toBe(a.id);
    nextMillisecond();
    b.checkpoint(convo(2));
    expect(Session.newest(d.data, d.ws)?.id).toBe(b.id);
  });

  test("nothing yet: empty list, no newest, even without the data directory", () => {
    expect(Session.list(d.data, d.ws)).toEqual([]);
    expect(Session.newest(d.data, d.ws)).toBeUndefined();
  });

  test("workspace paths are compared in canonical form", () => {
    const s = create();
    s.checkpoint(convo(1));
    expect(Session.list(d.data, join(d.ws, "..", "ws", ".")).map((m) => m.id)).toEqual([s.id]);
  });
});

describe("empty sessions", () => {
  test("a session that never held a message is not listed, not newest, and still opens by id", () => {
    const full = create();
    full.checkpoint(convo(1));
    nextMillisecond();
    const empty = create();
    empty.recordModel("gpt-y", "openai");
    expect(Session.list(d.data, d.ws).map((m) => m.id)).toEqual([full.id]);
    expect(Session.newest(d.data, d.ws)?.id).toBe(full.id);
    expect(Session.open(d.data, empty.id).history()).toEqual([]);
  });

  test("meta.json saying 0 messages does not hide messages the log holds (a crash before its rename)", () => {
    const s = create();
    const meta = readFileSync(join(s.dir, "meta.json"), "utf8");
    s.checkpoint(convo(1));
    writeFileSync(join(s.dir, "meta.json"), meta);
    rmSync(join(s.dir, "history.json"), { force: true });
    expect(Session.list(d.data, d.ws).map((m) => m.id)).toEqual([s.id]);
  });

  test("removeIfEmpty deletes only a session without messages", () => {
    const empty = create();
    expect(empty.removeIfEmpty()).toBe(true);
    expect(existsSync(empty.dir)).toBe(false);
    const full = create();
    full.checkpoint(convo(1));
    expect(full.removeIfEmpty()).toBe(false);
    expect(existsSync(join(full.dir, "events.jsonl"))).toBe(true);
  });
});

describe("checkpointSyncLater", () => {
  test("the messages are in the log and history.json when it returns; the promise resolves once synced", async () => {
    const s = create();
    const synced = s.checkpointSyncLater(convo(3));
    expect(readEvents(s.dir).filter((e) => e.type === "message")).toHaveLength(4);
    expect(readJson(join(s.dir, "history.json"))).toEqual(convo(3));
    expect(s.meta.messages).toBe(4);
    await synced;
    expect(Session.open(d.data, s.id).history()).toEqual(convo(3));
    // Nothing new: nothing written, already resolved.
    const before = readEvents(s.dir).length;
    await s.checkpointSyncLater(convo(3));
    expect(readEvents(s.dir).length).toBe(before);
  });
});
