// A worker's environment is built from an allow-list, never inherited: workers are trusted programs, but the
// core owns every credential (API keys, tokens) and none of them may leak into a worker.
import { dataDir } from "../config/paths.ts";

/** Variables copied from the parent when present. Anything else — credentials included — is dropped. */
export const INHERITED_VARS = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TEMP",
  "TMP",
];
/** Windows needs these for almost any program to start. */
export const WINDOWS_VARS = ["SYSTEMROOT", "WINDIR"];

export interface WorkerEnvOptions {
  workspace: string;
  configDir: string;
  /** the parent environment to pick from (default: process.env) */
  parent?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** Look a variable up the way the platform does: case-insensitively on Windows. */
function lookup(parent: NodeJS.ProcessEnv, name: string, windows: boolean): [string, string] | undefined {
  const exact = parent[name];
  if (exact !== undefined) return [name, exact];
  if (!windows) return undefined;
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(parent))
    if (k.toUpperCase() === upper && v !== undefined) return [k, v];
  return undefined;
}

export function workerEnv(opts: WorkerEnvOptions): Record<string, string> {
  const parent = opts.parent ?? process.env;
  const windows = (opts.platform ?? process.platform) === "win32";
  const env: Record<string, string> = {};
  for (const name of windows ? [...INHERITED_VARS, ...WINDOWS_VARS] : INHERITED_VARS) {
    const hit = lookup(parent, name, windows);
    if (hit) env[hit[0]] = hit[1];
  }
  env.I_CONFIG_DIR = opts.configDir;
  env.I_WORKSPACE = opts.workspace;
  env.I_DATA_DIR = dataDir(parent);
  // The memory diagnostic (a directory for per-process reports): on for the whole tree or for none of it.
  if (parent.I_DEBUG_MEMORY) env.I_DEBUG_MEMORY = parent.I_DEBUG_MEMORY;
  return env;
}
