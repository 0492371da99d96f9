// Putting the workspace back to a snapshot: the files that differ are written (atomically: temp file,
// rename), files the snapshot did not have are removed, symbolic links are recreated as links (their
// target as recorded, never followed), and nothing is written through a link: a path whose parent is a
// link or a file is left alone and named. A file the snapshot could not record (over the size cap) is
// left as it is, and named. Only paths git would track are touched; ignored files stay.
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { Snapshot, SnapshotEntry } from "../contract/checkpoints.ts";
import { errorMessage } from "../contract/errors.ts";
import { writeAll } from "../lib/write-all.ts";
import { previousIndex, sameEntry } from "./snapshot.ts";
import type { CheckpointStore } from "./store.ts";

export interface RestorePlan {
  /** entries of the target to write (files and links) */
  writes: SnapshotEntry[];
  /** paths to remove (the target does not have them) */
  deletes: string[];
  /** paths the target could not record: left as they are */
  unrecorded: string[];
  /** paths the plan touches that changed since the agent last recorded the workspace (by hand) */
  handChanged: string[];
  /** paths the target lacks only because its own ignore rules left them out: never removed */
  outOfView: string[];
}

/** What applying a plan did: the counts are of what was done, not of what was planned. */
export interface RestoreResult {
  written: number;
  removed: number;
  /** one line per path that could not be restored or removed */
  problems: string[];
  /** a write or removal failed: some path is not as the target has it */
  incomplete: boolean;
}

/**
 * What turns `current` (the workspace now, just recorded) into `target`. `lastKnown`: the workspace as
 * last recorded before now; a touched path that differs from it was changed by someone else since.
 * `ignoredByTarget`: whether the target's own ignore rules left a path out; such a path is not removed
 * (its absence from the target says nothing of whether the file existed then: `.env` after a change of
 * `.gitignore`).
 */
export function planRestore(
  current: Snapshot,
  target: Snapshot,
  lastKnown: Snapshot | undefined,
  ignoredByTarget: (path: string) => boolean = () => false,
): RestorePlan {
  const cur = previousIndex(current);
  const now = new Map(cur);
  const known = lastKnown ? previousIndex(lastKnown) : undefined;
  const writes: SnapshotEntry[] = [];
  const unrecorded: string[] = [];
  const touched: string[] = [];
  for (const e of target.entries) {
    const was = now.get(e.path);
    now.delete(e.path);
    if (e.kind === "skipped") {
      unrecorded.push(e.path);
      continue;
    }
    if (sameEntry(was, e)) continue;
    writes.push(e);
    touched.push(e.path);
  }
  // Either side partial: what it did not reach is unknown, so nothing is removed on its account.
  const absent =
    current.partial || target.partial ? [] : [...now.keys()].filter((p) => now.get(p)?.kind !== "skipped");
  const outOfView = absent.filter(ignoredByTarget);
  const deletes = outOfView.length === 0 ? absent : absent.filter((p) => !outOfView.includes(p));
  touched.push(...deletes);
  const handChanged = known ? touched.filter((p) => !sameEntry(known.get(p), cur.get(p))) : [];
  return { writes, deletes, unrecorded, handChanged, outOfView };
}

function isSafeRel(p: string): boolean {
  return p !== "" && !p.startsWith("/") && !p.split("/").some((s) => s === ".." || s === "." || s === "");
}

/** Make the parents of `rel` real directories inside `root`; a reason when one is a link or a file. */
function ensureParents(root: string, rel: string): string | undefined {
  const parts = rel.split("/").slice(0, -1);
  let abs = root;
  for (const part of parts) {
    abs = join(abs, part);
    let st: import("node:fs").Stats | undefined;
    try {
      st = lstatSync(abs);
    } catch {
      st = undefined;
    }
    if (!st) {
      mkdirSync(abs, { mode: 0o755 });
      continue;
    }
    if (st.isSymbolicLink()) return `${abs} is a symbolic link; nothing is written through it`;
    if (!st.isDirectory()) return `${abs} is not a directory`;
  }
  return undefined;
}

let tmpCounter = 0;

function writeEntry(root: string, e: SnapshotEntry, store: CheckpointStore): void {
  const abs = join(root, e.path);
  let st: import("node:fs").Stats | undefined;
  try {
    st = lstatSync(abs);
  } catch {}
  if (st?.isDirectory()) rmdirSync(abs); // emptied by the deletes before; throws when it is not empty
  if (e.kind === "link") {
    if (st && !st.isDirectory()) unlinkSync(abs);
    symlinkSync(e.target, abs);
    return;
  }
  if (e.kind !== "file") return;
  const data = store.readBlob(e.hash);
  const tmp = join(dirname(abs), `.${e.path.split("/").pop()}.i-restore.${process.pid}.${++tmpCounter}`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, e.mode);
  renameSync(tmp, abs);
}

/** Apply `plan` under `root`: what was written and removed, and one line per path that could not be. */
export function applyRestore(root: string, plan: RestorePlan, store: CheckpointStore): RestoreResult {
  const problems: string[] = [];
  let written = 0;
  let removed = 0;
  let failed = 0;
  for (const p of plan.deletes) {
    if (!isSafeRel(p)) continue;
    try {
      const abs = join(root, p);
      if (!lstatSync(abs).isDirectory()) {
        unlinkSync(abs);
        removed++;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
        failed++;
        problems.push(`${p}: not removed (${errorMessage(err)})`);
      }
    }
  }
  // Directories left empty by the removals go too (git does not track empty directories either).
  const dirs = new Set<string>();
  for (const p of plan.deletes) for (let d = dirname(p); d !== "." && d !== ""; d = dirname(d)) dirs.add(d);
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(root, d));
    } catch {}
  }
  for (const e of plan.writes) {
    if (!isSafeRel(e.path)) {
      failed++;
      problems.push(`${e.path}: not restored (not a path inside the workspace)`);
      continue;
    }
    const blocked = ensureParentsSafe(root, e.path);
    if (blocked) {
      failed++;
      problems.push(`${e.path}: not restored (${blocked})`);
      continue;
    }
    try {
      writeEntry(root, e, store);
      written++;
    } catch (err) {
      failed++;
      const why =
        (err as NodeJS.ErrnoException).code === "ENOTEMPTY"
          ? "a directory holding other files is in its place"
          : errorMessage(err);
      problems.push(`${e.path}: not restored (${why})`);
    }
  }
  for (const p of plan.unrecorded) problems.push(`${p}: left as it is (it was too large to record)`);
  return { written, removed, problems, incomplete: failed > 0 };
}

function ensureParentsSafe(root: string, rel: string): string | undefined {
  try {
    return ensureParents(root, rel);
  } catch (err) {
    return errorMessage(err);
  }
}
