// Forking a session: a new session of the same workspace whose history is the original's up to a point
// (all of it, or up to before a chosen message). The original is not written. The fork's log starts with
// a `fork` event naming its parent, and its checkpoint store shares the parent's recorded files (hard
// links: the store's files are never written in place), so /undo and /rewind in the fork still find the
// workspace as it was before the messages it inherited.
import { copyFileSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CheckpointEvent, ForkEvent } from "../contract/checkpoints.ts";
import type { History } from "../contract/history.ts";
import { EventsLog } from "../session/events-log.ts";
import { Session } from "../session/session.ts";
import { EVENTS_FILE } from "../session/store.ts";
import { STORE_DIR } from "./store.ts";

/** The session `dir` was forked from, when it was. */
export function readParent(dir: string): string | undefined {
  for (const line of new EventsLog(join(dir, EVENTS_FILE)).lines().slice(0, 4)) {
    if (!line.includes('"type":"fork"')) continue;
    try {
      const r = ForkEvent.safeParse(JSON.parse(line));
      if (r.success) return r.data.parent;
    } catch {}
  }
  return undefined;
}

function shareTree(from: string, to: string): void {
  let names: import("node:fs").Dirent[];
  try {
    names = readdirSync(from, { withFileTypes: true });
  } catch {
    return;
  }
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const d of names) {
    const a = join(from, d.name);
    const b = join(to, d.name);
    if (d.isDirectory()) shareTree(a, b);
    else if (d.isFile() && !d.name.startsWith(".")) {
      try {
        if (d.name === "order") copyFileSync(a, b);
        else linkSync(a, b);
      } catch {
        copyFileSync(a, b);
      }
    }
  }
}

/** Fork `source` with the first `keep` messages of `history` (its current conversation). */
export function forkSession(dataDir: string, source: Session, history: History, keep: number): Session {
  const m = source.meta;
  const fork = Session.create({
    dataDir,
    workspace: m.workspace,
    ...(m.provider ? { provider: m.provider } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(m.base_url ? { baseUrl: m.base_url } : {}),
  });
  fork.appendEvent("fork", { parent: source.id, messages: keep });
  shareTree(join(source.dir, STORE_DIR), join(fork.dir, STORE_DIR));
  // The parent's checkpoints, each with the time it was taken (`at`), which is what finds them.
  for (const line of new EventsLog(join(source.dir, EVENTS_FILE)).lines()) {
    if (!line.includes('"type":"checkpoint"')) continue;
    try {
      const r = CheckpointEvent.safeParse(JSON.parse(line));
      if (!r.success) continue;
      const { ts, type: _type, ...rest } = r.data;
      fork.appendEvent("checkpoint", { ...rest, at: rest.at ?? ts }, false);
    } catch {}
  }
  fork.checkpoint(history.slice(0, keep));
  fork.flush();
  return fork;
}
