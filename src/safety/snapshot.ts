// Recording the workspace: a walk over what git would track (the .gitignore of each directory and
// .git/info/exclude respected, .git and node_modules never entered, symbolic links recorded as links and
// never followed), each file's content stored by hash. The previous snapshot is the stat cache: a file
// whose size, mtime and inode are unchanged is not read again, so recording an unchanged workspace costs
// one lstat per file. A file modified within RACY_MS of the previous walk is read anyway (its mtime may
// not yet tell a second change in the same tick).
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { CheckpointsPolicy, Snapshot, SnapshotEntry } from "../contract/checkpoints.ts";
import { ALWAYS_SKIPPED, type IgnoreCheck, parseGitignore } from "../lib/gitignore.ts";
import { readOptionalText } from "../lib/text-files.ts";
import { type CheckpointStore, sha256 } from "./store.ts";

const RACY_MS = 5;

export interface RecordResult {
  snapshot: Snapshot;
  /** paths whose content (or kind) differs from the previous snapshot */
  changed: string[];
  /** files over the per-file cap */
  tooLarge: { path: string; size: number }[];
  /** a file's content is unchanged but its stat is not (touched, or rewritten the same): the stat cache
   * needs the new snapshot, or the file would be read again every time */
  restatted: boolean;
}

export interface Ignore {
  /** the directory the rules are relative to ("" for the workspace) */
  base: string;
  check: IgnoreCheck;
}

export function readIgnore(file: string): IgnoreCheck | undefined {
  let text: string | undefined;
  try {
    text = readOptionalText(file);
  } catch {
    return undefined;
  }
  return text === undefined || text.trim() === "" ? undefined : parseGitignore(text);
}

export function ignored(rules: readonly Ignore[], rel: string, isDir: boolean): boolean {
  if (rules.length === 0) return false;
  for (const r of rules) {
    const sub = r.base === "" ? rel : rel.slice(r.base.length + 1);
    if (r.check(sub, isDir)) return true;
  }
  return false;
}

export function previousIndex(prev: Snapshot | undefined): Map<string, SnapshotEntry> {
  const m = new Map<string, SnapshotEntry>();
  for (const e of prev?.entries ?? []) m.set(e.path, e);
  return m;
}

/**
 * Record `workspace` into `store`. `prev` (the last snapshot) is the stat cache; `skip` holds absolute
 * paths never recorded (the session's own data directory, when it lies inside the workspace).
 */
export function recordWorkspace(
  workspace: string,
  store: CheckpointStore,
  policy: CheckpointsPolicy,
  prev: Snapshot | undefined,
  skip: ReadonlySet<string> = new Set(),
  prevIndex: Map<string, SnapshotEntry> = previousIndex(prev),
): RecordResult {
  const started = Date.now();
  const deadline = started + policy.max_ms;
  const racyBefore = (prev?.taken_ms ?? 0) - RACY_MS;
  const entries: SnapshotEntry[] = [];
  const changed: string[] = [];
  const tooLarge: { path: string; size: number }[] = [];
  let partial: string | undefined;
  let seen = 0;
  const root: Ignore[] = [];
  const exclude = readIgnore(join(workspace, ".git", "info", "exclude"));
  if (exclude) root.push({ base: "", check: exclude });

  let restatted = false;
  const note = (e: SnapshotEntry, before: SnapshotEntry | undefined) => {
    entries.push(e);
    // The stat cache hit: the very entry of the previous snapshot.
    if (e === before) return;
    if (!sameEntry(before, e)) changed.push(e.path);
    else if (
      e.kind === "file" &&
      before?.kind === "file" &&
      (e.mtime !== before.mtime || e.ino !== before.ino)
    )
      restatted = true;
  };

  const walk = (abs: string, rel: string, rules: Ignore[]): void => {
    let names: import("node:fs").Dirent[];
    try {
      names = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const here = names.some((d) => d.name === ".gitignore") ? readIgnore(join(abs, ".gitignore")) : undefined;
    const active = here ? [...rules, { base: rel, check: here }] : rules;
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (partial) return;
      const name = d.name;
      // The clock is read every 256 names seen (ignored ones too), so an ignored million still stops.
      if ((++seen & 255) === 0 && Date.now() > deadline) {
        partial = `recording took longer than ${policy.max_ms} ms`;
        return;
      }
      const path = rel === "" ? name : `${rel}/${name}`;
      // Plain concatenation: path.join normalises every time, and these parts are already clean.
      const full = `${abs}/${name}`;
      if (d.isDirectory()) {
        if (ALWAYS_SKIPPED.has(name) || skip.has(full) || ignored(active, path, true)) continue;
        walk(full, path, active);
        continue;
      }
      if (ignored(active, path, false)) continue;
      if (entries.length >= policy.max_files) {
        partial = `more than ${policy.max_files} files`;
        return;
      }
      if (d.isSymbolicLink()) {
        try {
          note({ kind: "link", path, target: readlinkSync(full) }, prevIndex.get(path));
        } catch {}
        continue;
      }
      if (!d.isFile()) continue;
      const before = prevIndex.get(path);
      const e = recordFile(full, path, store, policy, before, racyBefore);
      if (!e) continue;
      if (e.kind === "skipped") tooLarge.push({ path, size: e.size });
      note(e, before);
    }
  };
  walk(workspace, "", root);
  const gone = new Set(prevIndex.keys());
  for (const e of entries) gone.delete(e.path);
  // A partial walk says nothing about the paths it did not reach.
  if (!partial) changed.push(...gone);
  const snapshot: Snapshot = { version: 1, taken_ms: started, ...(partial ? { partial } : {}), entries };
  return { snapshot, changed, tooLarge, restatted };
}

function recordFile(
  full: string,
  path: string,
  store: CheckpointStore,
  policy: CheckpointsPolicy,
  before: SnapshotEntry | undefined,
  racyBefore: number,
): SnapshotEntry | undefined {
  let st: import("node:fs").Stats;
  try {
    st = lstatSync(full);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return undefined;
  if (st.size > policy.max_file_bytes) return { kind: "skipped", path, size: st.size };
  const mode = st.mode & 0o777;
  if (
    before?.kind === "file" &&
    before.size === st.size &&
    before.mtime === st.mtimeMs &&
    before.ino === st.ino &&
    before.mtime < racyBefore &&
    store.hasBlobOf(before.hash, before.size)
  ) {
    return before.mode === mode ? before : { ...before, mode };
  }
  let data: Buffer;
  try {
    data = readFileSync(full);
  } catch {
    return undefined;
  }
  const hash = sha256(data);
  store.putBlob(hash, data);
  return { kind: "file", path, hash, size: data.length, mode, mtime: st.mtimeMs, ino: st.ino };
}

/** Same content and kind (the stat fields are only the cache). */
export function sameEntry(a: SnapshotEntry | undefined, b: SnapshotEntry | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return a === b;
  if (a.kind === "file" && b.kind === "file") return a.hash === b.hash && a.mode === b.mode;
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  if (a.kind === "skipped" && b.kind === "skipped") return a.size === b.size;
  return false;
}
