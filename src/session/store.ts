// The sessions directory (I_DATA_DIR): finding a session by id or prefix, reading and rebuilding meta.json,
// and listing the sessions of one workspace.
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../contract/errors.ts";
import { ModelEvent, SessionMeta, SessionStartEvent, TitleEvent } from "../contract/session.ts";
import { EventsLog, replayEvents } from "./events-log.ts";
import { usageOf, withLogTail } from "./meta-tail.ts";
import { SESSION_ID_PATTERN } from "./session-id.ts";
import { sessionTitle } from "./title.ts";

export const META_FILE = "meta.json";
export const HISTORY_FILE = "history.json";
export const PRECOMPACT_FILE = ".precompact.json";
export const EVENTS_FILE = "events.jsonl";

/** The form a workspace path is stored and compared in: absolute and, when it exists, real. */
export function canonicalWorkspace(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

export function sessionDirs(dataDir: string): string[] {
  try {
    return readdirSync(dataDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && SESSION_ID_PATTERN.test(d.name))
      .map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new UserError(`${dataDir}: cannot read the sessions directory: ${(err as Error).message}`);
  }
}

/** The directory name of session `id`, which may be a unique prefix of it. UserError when there is none. */
export function resolveSessionId(dataDir: string, id: string): string {
  if (!SESSION_ID_PATTERN.test(id)) {
    throw new UserError(
      `session id "${id}" is not valid: ids are letters, digits, "-" and "_"; list them with \`i sessions\``,
    );
  }
  const names = sessionDirs(dataDir);
  if (names.includes(id)) return id;
  const matches = names.filter((n) => n.startsWith(id));
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    throw new UserError(
      `session id "${id}" is ambiguous: ${matches.length} sessions in ${dataDir} start with it; give more of the id`,
    );
  }
  throw new UserError(`no session "${id}" in ${dataDir}; list this workspace's sessions with \`i sessions\``);
}

/** meta.json as written, or undefined when it is missing or unreadable. */
function readMetaFile(dir: string): SessionMeta | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, META_FILE), "utf8");
  } catch {
    return undefined;
  }
  try {
    const r = SessionMeta.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The session's meta: meta.json, or — when that is missing or damaged (a crash while the session was
 * being created, an edit) — rebuilt from events.jsonl.
 */
export function loadMeta(dir: string, id: string): { meta: SessionMeta; rebuilt: boolean } | undefined {
  const meta = readMetaFile(dir);
  if (meta) return { meta, rebuilt: false };
  const { events } = new EventsLog(join(dir, EVENTS_FILE)).read();
  const start = events.find((e) => e.type === "session");
  const s = start && SessionStartEvent.safeParse(start);
  if (!s?.success) return undefined;
  const last = events[events.length - 1];
  // The model the session last switched to, else the one it started with.
  const switched = events.findLast((e) => e.type === "model");
  const m = switched && ModelEvent.safeParse(switched);
  const target = m?.success ? m.data : s.data;
  const { history } = replayEvents(events);
  // A title the user gave (/rename) wins over the one the first request gives.
  const renamed = events.findLast((e) => e.type === "title");
  const given = renamed && TitleEvent.safeParse(renamed);
  const title = given?.success ? given.data.title : sessionTitle(history);
  const usage = usageOf(events, undefined);
  return {
    meta: {
      id,
      workspace: s.data.workspace,
      created: s.data.ts,
      updated: last?.ts ?? s.data.ts,
      ...((target.provider ?? s.data.provider) ? { provider: target.provider ?? s.data.provider } : {}),
      ...(target.model ? { model: target.model } : {}),
      ...((target.base_url ?? s.data.base_url) ? { base_url: target.base_url ?? s.data.base_url } : {}),
      ...(title ? { title } : {}),
      messages: history.length,
      compactions: events.filter((e) => e.type === "compaction").length,
      ...(usage ? { usage } : {}),
    },
    rebuilt: true,
  };
}

export { sessionTitle };

/** Log events that change no history: a log of only these holds no conversation. */
const NO_HISTORY_EVENTS = new Set(["session", "model", "title", "usage"]);

/**
 * True when the session never held a message: a console opened and left, or `/new` followed by nothing.
 * Decided from the record, not meta.json alone (a crash between a log append and the meta.json rename
 * leaves meta.json saying 0 messages): no history.json, and a log with nothing but its start and model
 * switches, and no line it could not read.
 */
export function isEmptySession(dir: string, meta: SessionMeta): boolean {
  if (meta.messages > 0 || meta.compactions > 0 || existsSync(join(dir, HISTORY_FILE))) return false;
  const { events, skipped } = new EventsLog(join(dir, EVENTS_FILE)).read();
  return skipped === 0 && events.every((e) => NO_HISTORY_EVENTS.has(e.type));
}

/**
 * The sessions of `workspace` that hold a conversation, most recently updated first (counted to the end
 * of each log, not just to where meta.json was last written). Empty sessions are
 * left out: they would crowd `i sessions` and the /resume picker, and `-c` would continue nothing.
 * `workspace` undefined: every workspace's (an ACP client's `session/list` without a cwd).
 */
export function listSessions(dataDir: string, workspace: string | undefined): SessionMeta[] {
  const ws = workspace === undefined ? undefined : canonicalWorkspace(workspace);
  const out: SessionMeta[] = [];
  for (const name of sessionDirs(dataDir)) {
    const dir = join(dataDir, name);
    const loaded = loadMeta(dir, name);
    if (!loaded || (ws !== undefined && loaded.meta.workspace !== ws)) continue;
    // meta.json lags a running (or killed) session's last checkpoints: the log after it has them.
    const meta = withLogTail(loaded.meta, join(dir, EVENTS_FILE));
    if (!isEmptySession(dir, meta)) out.push({ ...meta, id: name });
  }
  return out.sort((a, b) =>
    a.updated !== b.updated ? (a.updated < b.updated ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
}
