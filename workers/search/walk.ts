// Walking the workspace for grep and find: depth-first in name order (so results are stable), skipping
// .git, node_modules, hidden entries unless asked and what each directory's ignore files exclude, and
// never leaving the workspace: symbolic links to directories are not followed at all, links to files
// only when the target is inside the workspace.
import { closeSync, constants, type Dirent, openSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { IgnoreCheck } from "../../src/lib/gitignore.ts";
import { descriptorInside, isInside } from "../sdk/workspace-path.ts";

export interface WalkFile {
  /** path relative to the workspace, forward slashes */
  rel: string;
  /** absolute path to read */
  abs: string;
}

export interface WalkOptions {
  /** the workspace's real path */
  realRoot: string;
  ignored: IgnoreCheck;
  /** also walk hidden entries (names starting with "."); they are skipped otherwise, as ripgrep does */
  hidden?: boolean;
  /** checked before each directory; true stops the walk (deadline reached) */
  shouldStop?: () => boolean;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function joinRel(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** `real` relative to the workspace's real root, with forward slashes ("" for the root itself). */
export function workspaceRel(realRoot: string, real: string): string {
  return relative(realRoot, real).split(sep).join("/");
}

/**
 * The entries of directory `dir`, read through a descriptor checked to be inside `realRoot` (Linux): a
 * directory swapped for a symlink to outside after it was listed by its parent is refused, not listed.
 */
function listInside(dir: string, realRoot: string): Dirent[] {
  if (process.platform !== "linux") return readdirSync(dir, { withFileTypes: true });
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    if (!descriptorInside(fd, realRoot)) throw new Error(`${dir} leads outside the workspace`);
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

/**
 * Regular files under the directory `startRel` (relative to realRoot; "" for the root), in path order
 * compared segment by segment (a directory's files and subdirectories interleaved by name).
 */
export function* walkFiles(startRel: string, opts: WalkOptions): Generator<WalkFile> {
  if (opts.shouldStop?.()) return;
  const dirAbs = startRel === "" ? opts.realRoot : join(opts.realRoot, startRel);
  let entries: Dirent[];
  try {
    entries = listInside(dirAbs, opts.realRoot).sort(byName);
  } catch {
    return; // unreadable directory (or one swapped for a link to outside): skip it
  }
  for (const e of entries) {
    if (!opts.hidden && e.name.startsWith(".")) continue;
    const rel = joinRel(startRel, e.name);
    if (e.isDirectory()) {
      if (!opts.ignored(rel, true)) yield* walkFiles(rel, opts);
      if (opts.shouldStop?.()) return;
    } else if (e.isFile()) {
      if (!opts.ignored(rel, false)) yield { rel, abs: join(opts.realRoot, rel) };
    } else if (e.isSymbolicLink()) {
      if (opts.ignored(rel, false)) continue;
      const target = linkedFile(join(opts.realRoot, rel), opts.realRoot);
      if (target) yield { rel, abs: target };
    }
  }
}

/** The real path of a symlinked regular file inside the workspace, else undefined. */
function linkedFile(abs: string, realRoot: string): string | undefined {
  try {
    const real = realpathSync(abs);
    if (!isInside(realRoot, real)) return undefined;
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}
