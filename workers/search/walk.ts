// Walking the workspace for grep and find: depth-first in name order (so results are stable), skipping
// .git, node_modules and .gitignore'd entries, and never leaving the workspace: symbolic links to
// directories are not followed at all, links to files only when the target is inside the workspace.
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { IgnoreCheck } from "../../src/contract/lib/gitignore.ts";
import { isInside } from "../sdk/workspace-path.ts";

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
 * Regular files under the directory `startRel` (relative to realRoot; "" for the root), in path order
 * compared segment by segment (a directory's files and subdirectories interleaved by name).
 */
export function* walkFiles(startRel: string, opts: WalkOptions): Generator<WalkFile> {
  if (opts.shouldStop?.()) return;
  const dirAbs = startRel === "" ? opts.realRoot : join(opts.realRoot, startRel);
  let entries: Dirent[];
  try {
    entries = readdirSync(dirAbs, { withFileTypes: true }).sort(byName);
  } catch {
    return; // unreadable directory: skip it rather than fail the whole search
  }
  for (const e of entries) {
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
