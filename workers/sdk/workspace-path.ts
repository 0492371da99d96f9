// Paths a worker reads on behalf of the model or the workspace must stay inside the workspace. Checking the
// lexical path is not enough: a symlink inside the workspace may point anywhere, so the real path of the
// target is checked too.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { descriptorInside, isInside } from "../../src/lib/paths.ts";

// The same containment rules as the core's file tools: by path, and (Linux) by where an opened
// descriptor really is, which a symlink swapped in after the path check cannot fake.
export { descriptorInside, isInside };

/** The real path of the workspace (symlinks in the workspace path itself resolved). */
export function realWorkspace(workspace: string): string {
  return realpathSync(resolve(workspace));
}

/** `real` is the path with symlinks resolved; `realRoot` the workspace's own real path. */
export type Resolved =
  | { ok: true; path: string; real: string; realRoot: string }
  | { ok: false; reason: string };

/**
 * Resolve `userPath` (relative to the workspace, or absolute) and make sure both the path and, when it
 * exists, its real path stay inside the workspace. A missing path is reported as such.
 */
export function resolveInWorkspace(workspace: string, userPath: string | undefined): Resolved {
  const root = resolve(workspace);
  const path = resolve(root, userPath ?? ".");
  const shown = userPath ?? ".";
  if (!isInside(root, path)) return { ok: false, reason: `path "${shown}" is outside the workspace` };
  let realRoot: string;
  let real: string;
  try {
    realRoot = realWorkspace(root);
  } catch {
    return { ok: false, reason: `the workspace ${root} does not exist` };
  }
  try {
    real = realpathSync(path);
  } catch {
    return { ok: false, reason: `path "${shown}" does not exist in the workspace` };
  }
  if (!isInside(realRoot, real)) {
    return { ok: false, reason: `path "${shown}" leads outside the workspace (through a symbolic link)` };
  }
  return { ok: true, path, real, realRoot };
}
