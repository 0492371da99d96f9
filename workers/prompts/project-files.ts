// Which instruction files apply to a workspace, as peers read them: in every directory from the
// repository's root down to the workspace, AGENTS.md (or, where there is none, CLAUDE.md), outermost
// first so the nearer, more specific file comes last; and the user's own for every project,
// config_dir/AGENTS.md (else CLAUDE.md). Directories below the workspace are the core's: their file comes
// with the first file the model reads under them.
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export const INSTRUCTION_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Directories walked up from the workspace looking for the repository root. */
const MAX_LEVELS = 64;

/** The repository root: the nearest directory at or above `workspace` holding .git; else the workspace. */
export function repositoryRoot(workspace: string): string {
  let dir = workspace;
  for (let i = 0; i < MAX_LEVELS; i++) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return workspace;
}

/** The directories whose instruction file applies to the whole workspace, outermost first. */
export function instructionDirs(workspace: string): string[] {
  const root = repositoryRoot(workspace);
  const dirs: string[] = [];
  for (let dir = workspace; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return dirs;
}

/** How to name `dir`'s file in the prompt: relative to the workspace ("AGENTS.md", "../AGENTS.md"). */
export function shownName(workspace: string, dir: string, name: string): string {
  const rel = relative(workspace, dir);
  return rel === "" ? name : `${rel}/${name}`;
}
