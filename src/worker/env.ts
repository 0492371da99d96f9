// A worker's environment is built from an allow-list, never inherited: workers are trusted programs, but the
// core owns every credential (API keys, tokens) and none of them may leak into a worker.
import { dataDir } from "../config/paths.ts";
import { INHERITED_VARS, WINDOWS_VARS } from "../lib/env-allow-list.ts";

export { INHERITED_VARS, WINDOWS_VARS };

/**
 * Added for the built-in worker process (`i worker …`, this same executable), never for a bound module.
 * JavaScriptCore's "mini VM" mode, with the JIT still on: the heap grows by 1.2x of what is live instead of
 * 2x, and collections are full ones, so the per-request garbage of hook data (history-sized strings and
 * arrays that grow a little every turn) does not pile up in the old generation or spread over ever new
 * allocation sizes. Measured on S0 1,000 turns (compiled): the worker's peak 74.5 -> 59.9 MB RSS, for
 * ~0.25 ms more worker CPU per turn. A long-lived compiled core (the console, `i acp`) runs in the same
 * mode (runtime/engine-mode.ts re-executes it at start, the option being read only then).
 * Without the DFG tier (and so without FTL): the worker's hot functions stay in the baseline JIT, and the
 * optimising compiler, native code of the runtime, is never paged in: S1 tree PSS ~3 MB less, for worker
 * CPU per compaction within the noise. The core keeps the tier: without it its per-turn cost at 1,000
 * turns went up by half.
 */
export const BUILTIN_WORKER_ENV: Readonly<Record<string, string>> = {
  BUN_JSC_forceMiniVMMode: "1",
  BUN_JSC_useDFGJIT: "0",
};

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
  // The startup diagnostic, likewise (src/lib/startup-trace.ts).
  if (parent.I_DEBUG_STARTUP !== undefined) env.I_DEBUG_STARTUP = parent.I_DEBUG_STARTUP;
  return env;
}
