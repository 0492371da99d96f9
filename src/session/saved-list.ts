// What the session picker (`i -r`, `/resume`) shows of saved sessions: every workspace's, for `i -r --all`,
// each with the size of its record; and for the marked one a preview: its first request and its last
// exchange, read from history.json (the last checkpoint) or, when there is none, from the log.
import { statSync } from "node:fs";
import { join } from "node:path";
import { contentText, type History, type Message } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { readHistoryFile } from "./history-file.ts";
import { withLogTail } from "./meta-tail.ts";
import { allMessages } from "./recover.ts";
import { EVENTS_FILE, HISTORY_FILE, isEmptySession, loadMeta, sessionDirs } from "./store.ts";

export type ListedMeta = SessionMeta & { id: string; bytes: number };

/** The sessions that hold a conversation, of every workspace, most recently updated first. */
export function listAllSessions(dataDir: string): SessionMeta[] {
  const out: SessionMeta[] = [];
  for (const name of sessionDirs(dataDir)) {
    const dir = join(dataDir, name);
    const loaded = loadMeta(dir, name);
    if (!loaded) continue;
    const meta = withLogTail(loaded.meta, join(dir, EVENTS_FILE));
    if (!isEmptySession(dir, meta)) out.push({ ...meta, id: name });
  }
  return out.sort((a, b) =>
    a.updated !== b.updated ? (a.updated < b.updated ? 1 : -1) : a.id < b.id ? 1 : -1,
  );
}

/** The size of a session's record on disk (its log and checkpoint). */
export function sessionBytes(dataDir: string, id: string): number {
  let n = 0;
  for (const f of [EVENTS_FILE, HISTORY_FILE])
    try {
      n += statSync(join(dataDir, id, f)).size;
    } catch {}
  return n;
}

export interface SessionPreview {
  /** the first request's text */
  first?: string;
  /** the last request's text and the reply after it */
  lastRequest?: string;
  lastReply?: string;
}

const isRequest = (m: Message) => m.role === "user" && contentText(m.content).trim() !== "";

/** The first request and the last exchange of session `id` (raw text: the caller cleans it). */
export function sessionPreview(dataDir: string, id: string): SessionPreview {
  const dir = join(dataDir, id);
  let h: History | undefined;
  try {
    h = readHistoryFile(join(dir, HISTORY_FILE)) ?? allMessages(dir);
  } catch {
    return {};
  }
  const first = h.find(isRequest);
  let last = -1;
  for (let i = h.length - 1; i >= 0; i--)
    if (isRequest(h[i] as Message)) {
      last = i;
      break;
    }
  const reply = h
    .slice(last + 1)
    .filter((m) => m.role === "assistant" && contentText(m.content).trim() !== "")
    .at(-1);
  return {
    ...(first ? { first: contentText(first.content) } : {}),
    ...(last >= 0 ? { lastRequest: contentText((h[last] as Message).content) } : {}),
    ...(reply ? { lastReply: contentText(reply.content) } : {}),
  };
}
