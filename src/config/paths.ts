// Where `i` keeps its files. Both directories can be moved with environment variables.
import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { errorMessage, UserError } from "../contract/errors.ts";

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.I_CONFIG_DIR;
  return v ? resolve(v) : join(homedir(), ".i", "config");
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.I_DATA_DIR;
  return v ? resolve(v) : join(homedir(), ".i", "sessions");
}

/**
 * Create `dir` (and parents) readable only by the user, as config_dir holds auth.json and logs. A failure
 * is left to the caller's own check of the directory, which names the path in its error.
 */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // e.g. a parent is a file: the worker start reports "working directory … does not exist"
  }
}

const DIRS = { I_CONFIG_DIR: configDir, I_DATA_DIR: dataDir } as const;
export type DirVariable = keyof typeof DIRS;

/** The directory `name` sets, named by the variable when it is set, else by its default path. */
function dirName(name: DirVariable, env: NodeJS.ProcessEnv): [dir: string, what: string] {
  const dir = DIRS[name](env);
  return [dir, env[name] ? `${name}: ${dir}` : `${dir} (the default for ${name})`];
}

/**
 * What stands in the way of config_dir or the data directory, creating nothing (`i doctor` asks too): a
 * file where the directory or one of its parents should be. Undefined when it is a directory or could
 * be made one. These are the user's setting (I_CONFIG_DIR, I_DATA_DIR, HOME) to fix, said so in one
 * line instead of surfacing later as a worker that cannot start or an internal error from mkdir.
 */
export function dirProblem(name: DirVariable, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const [dir, what] = dirName(name, env);
  for (let p = dir; ; p = dirname(p)) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      if (p === dirname(p)) return undefined;
      continue;
    }
    if (isDir) return undefined;
    return p === dir
      ? `${what} is not a directory; set ${name} to a directory`
      : `${what} cannot be created: ${p} is a file; set ${name} to a directory you can write`;
  }
}

/** Throw the first dirProblem of `names` as the one-line error; creates nothing. */
export function refuseBadDirs(
  names: readonly DirVariable[] = Object.keys(DIRS) as DirVariable[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  for (const name of names) {
    const problem = dirProblem(name, env);
    if (problem) throw new UserError(problem);
  }
}

/** Before a run uses them: both directories exist (created private if need be), or one line says why not. */
export function checkDirs(env: NodeJS.ProcessEnv = process.env): void {
  refuseBadDirs(Object.keys(DIRS) as DirVariable[], env);
  for (const name of Object.keys(DIRS) as DirVariable[]) {
    const [dir, what] = dirName(name, env);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? errorMessage(err);
      throw new UserError(`${what} cannot be created (${why}); set ${name} to a directory you can write`);
    }
  }
}
