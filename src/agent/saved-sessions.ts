// The saved sessions the console's picker offers (`i -r`, `/resume`), before or while a session is open:
// this workspace's, or every workspace's (`i -r --all`), with their sizes, and the preview of one.
import { dataDir } from "../config/paths.ts";
import {
  type ListedMeta,
  listAllSessions,
  type SessionPreview,
  sessionBytes,
  sessionPreview,
} from "../session/saved-list.ts";
import { Session } from "../session/session.ts";
import { resolveWorkspace } from "./options.ts";

export type { ListedMeta, SessionPreview };

/** Sessions that hold a conversation, newest first: of `workspace` (default: the current one), or all. */
export function savedSessions(opts: { workspace?: string | undefined; all?: boolean }): ListedMeta[] {
  const dir = dataDir();
  const list = opts.all ? listAllSessions(dir) : Session.list(dir, resolveWorkspace(opts.workspace));
  return list
    .filter((m) => !m.parent)
    .map((m) => ({ ...m, id: m.id as string, bytes: sessionBytes(dir, m.id as string) }));
}

export function savedSessionPreview(id: string): SessionPreview {
  return sessionPreview(dataDir(), id);
}
