// What a rewind must not lose to a change of ignore rules. A snapshot holds only what its own .gitignore
// files let through, so a path can be missing from a checkpoint for two reasons: it did not exist, or it
// was ignored then. Only the first is the agent's to remove. And a path the checkpoint has but the
// workspace now ignores is out of the current snapshot, so a hand edit of it would be overwritten unseen:
// such a file is compared on disk, kept in the store before it is overwritten, and asked about.
import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { Snapshot, SnapshotEntry } from "../contract/checkpoints.ts";
import { ALWAYS_SKIPPED, type IgnoreCheck, parseGitignore } from "../lib/gitignore.ts";
import { readRegularBytes } from "../lib/regular-file.ts";
import type { RestorePlan } from "./restore.ts";
import { type Ignore, ignored, previousIndex, readIgnore, sameEntry } from "./snapshot.ts";
import { type CheckpointStore, sha256 } from "./store.ts";

const GITIGNORE = ".gitignore";

/**
 * Whether `target`'s ignore rules (its .gitignore files as recorded, and .git/info/exclude as it is) left
 * `rel` out, the way the walk that recorded it decides. A .gitignore whose recorded content cannot be
 * read (damaged) counts as ignoring everything below it: nothing is removed on an unknown rule.
 */
export function ignoredByTarget(
  workspace: string,
  target: Snapshot,
  store: CheckpointStore,
): (rel: string) => boolean {
  const rules = new Map<string, IgnoreCheck | "unknown">();
  for (const e of target.entries) {
    if (e.kind !== "file" || (e.path !== GITIGNORE && !e.path.endsWith(`/${GITIGNORE}`))) continue;
    const base = e.path === GITIGNORE ? "" : e.path.slice(0, -GITIGNORE.length - 1);
    try {
      const text = store.readBlob(e.hash).toString("utf8");
      if (text.trim() !== "") rules.set(base, parseGitignore(text));
    } catch {
      rules.set(base, "unknown");
    }
  }
  const exclude = readIgnore(join(workspace, ".git", "info", "exclude"));
  return (rel) => {
    const parts = rel.split("/");
    const active: Ignore[] = exclude ? [{ base: "", check: exclude }] : [];
    let base = "";
    for (let i = 0; i < parts.length; i++) {
      const here = rules.get(base);
      if (here === "unknown") return true;
      if (here) active.push({ base, check: here });
      const path = base === "" ? (parts[i] as string) : `${base}/${parts[i]}`;
      const isDir = i < parts.length - 1;
      if (isDir && ALWAYS_SKIPPED.has(parts[i] as string)) return true;
      if (ignored(active, path, isDir)) return true;
      base = path;
    }
    return false;
  };
}

/** A file or link on disk as a snapshot entry (stored), or why it cannot be kept. */
function onDisk(
  abs: string,
  path: string,
  store: CheckpointStore,
  maxBytes: number,
): SnapshotEntry | "absent" | string {
  let st: import("node:fs").Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return "absent";
  }
  if (st.isSymbolicLink()) return { kind: "link", path, target: readlinkSync(abs) };
  if (st.isDirectory()) return "absent"; // the restore names a directory in the way itself
  if (!st.isFile()) return "it is not a regular file";
  if (st.size > maxBytes) return "it is too large to keep a copy of first";
  const data = readRegularBytes(abs, maxBytes, "a file a rewind would overwrite");
  if (data === undefined) return "absent";
  const hash = sha256(data);
  store.putBlob(hash, data);
  return {
    kind: "file",
    path,
    hash,
    size: data.length,
    mode: st.mode & 0o777,
    mtime: st.mtimeMs,
    ino: st.ino,
  };
}

export interface OutOfViewWrites {
  /** what the rewind will overwrite that the current snapshot does not hold (kept in the store now) */
  kept: SnapshotEntry[];
  /** lines for files left as they are */
  lines: string[];
}

/**
 * The writes of `plan` to paths the current snapshot does not hold (ignored now): one already as the
 * target has it is dropped, one that differs is kept in the store and added to the hand-changed list (no
 * snapshot tells who changed it), one that cannot be kept is left as it is, and named — as is a tracked
 * file over the per-file cap now, which the store has no copy of either. Changes `plan`.
 */
export function checkOutOfViewWrites(
  workspace: string,
  current: Snapshot,
  plan: RestorePlan,
  store: CheckpointStore,
  maxBytes: number,
): OutOfViewWrites {
  const cur = previousIndex(current);
  const kept: SnapshotEntry[] = [];
  const lines: string[] = [];
  plan.writes = plan.writes.filter((e) => {
    const now = cur.get(e.path);
    // Over the per-file cap now: no copy is in the store, so overwriting it could not be undone.
    if (now?.kind === "skipped") {
      lines.push(
        `${e.path}: left as it is (it is over max_file_bytes now, so no copy could be kept before overwriting it; raise max_file_bytes in checkpoints.json to restore it)`,
      );
      return false;
    }
    if (now) return true;
    let disk: ReturnType<typeof onDisk>;
    try {
      disk = onDisk(join(workspace, e.path), e.path, store, maxBytes);
    } catch (err) {
      disk = (err as Error).message;
    }
    if (disk === "absent") return true;
    if (typeof disk === "string") {
      lines.push(`${e.path}: left as it is (not tracked now, and ${disk})`);
      return false;
    }
    if (sameEntry(disk, e)) return false;
    kept.push(disk);
    if (!plan.handChanged.includes(e.path)) plan.handChanged.push(e.path);
    return true;
  });
  return { kept, lines };
}

/** `current` with `kept` added: the workspace before a rewind, what reversing it puts back. */
export function withKept(current: Snapshot, kept: readonly SnapshotEntry[]): Snapshot {
  const entries = [...current.entries, ...kept].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return { ...current, entries };
}
