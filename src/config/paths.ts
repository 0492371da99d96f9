// Where `i` keeps its files. Both directories can be moved with environment variables.
import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
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

/**
 * config_dir and the data directory before a run uses them: a path that is a file, or one that cannot be
 * created, is the user's setting (I_CONFIG_DIR, I_DATA_DIR, HOME) to fix, and is said so in one line
 * instead of surfacing later as a worker that cannot start or an internal error from mkdir.
 */
export function checkDirs(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, dir] of [
    ["I_CONFIG_DIR", configDir(env)],
    ["I_DATA_DIR", dataDir(env)],
  ] as const) {
    // Named by the variable when it is set, else by the default path and the variable that moves it.
    const what = env[name] ? `${name}: ${dir}` : `${dir} (the default for ${name})`;
    const fix = `set ${name} to`;
    let isDir: boolean | undefined;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = undefined;
    }
    if (isDir === false) throw new UserError(`${what} is not a directory; ${fix} a directory`);
    if (isDir === undefined) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        const why = (err as NodeJS.ErrnoException).code ?? errorMessage(err);
        throw new UserError(`${what} cannot be created (${why}); ${fix} a directory you can write`);
      }
    }
  }
}
