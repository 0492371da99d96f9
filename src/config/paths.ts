// Where `i` keeps its files. Both directories can be moved with environment variables.
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

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
