// The engine setting the compiled core runs with: JavaScriptCore's mini VM mode, which grows the heap by a
// smaller factor between collections. Measured on the compiled binary, it keeps the core's anonymous
// memory ~6 MB lower on a 40-turn compacting session (S1 of scripts/bench/memory.ts) with no change per
// turn beyond the noise. The engine reads its options once, from the environment, when the process
// starts, and the build has no flag for this one: so the executable, at start, replaces itself (execve:
// same pid, same terminal, nothing left behind) with an image whose environment sets it, before it has
// read anything or started any child. The new image drops the variable from process.env at once, so
// tool commands never inherit it (the built-in worker is given it on purpose, see worker/env.ts). The
// optimising compiler's warm-up thresholds are raised the same way (ENGINE_VARS in lib/engine-mode-env.ts).
//
// Only the compiled executable does this (as only it has the build's JIT policy); from source, and
// when the user set the variable themselves, nothing changes.
import { ENGINE_VARS, ENGINE_MARK_VAR as MARK_VAR, MINI_VM_VAR } from "../lib/engine-mode-env.ts";
import { isCompiled, runtimeName, selfArgv } from "./runtime.ts";

export { MINI_VM_VAR };

/**
 * The environment to re-execute with, or undefined to go on as this image is. `childless` commands
 * (`--version` above all, which must stay fast) start no session and keep their first image.
 */
export function engineRestartEnv(
  env: NodeJS.ProcessEnv,
  opts: { compiled: boolean; childless: boolean },
): NodeJS.ProcessEnv | undefined {
  if (!opts.compiled || opts.childless) return undefined;
  if (env[MARK_VAR] !== undefined || env[MINI_VM_VAR] !== undefined) return undefined;
  return { ...env, ...ENGINE_VARS, [MARK_VAR]: "1" };
}

/**
 * At start: re-execute in mini VM mode when that applies (does not return then); in the re-executed
 * image, drop the two variables from process.env. A runtime without execve goes on unchanged.
 */
export function applyEngineMode(args: readonly string[], childless: boolean): void {
  if (process.env[MARK_VAR] !== undefined) {
    delete process.env[MARK_VAR];
    for (const k of Object.keys(ENGINE_VARS)) delete process.env[k];
    return;
  }
  if (runtimeName !== "bun" || process.platform === "win32") return;
  const env = engineRestartEnv(process.env, { compiled: isCompiled(), childless });
  const execve = (process as { execve?: (file: string, argv: string[], env: NodeJS.ProcessEnv) => never })
    .execve;
  if (!env || typeof execve !== "function") return;
  const [prog, ...rest] = selfArgv() as [string, ...string[]];
  try {
    execve(prog, [prog, ...rest, ...args], env);
  } catch {
    // The exec was refused (a sandbox, a noexec mount): the session runs with the engine's defaults.
  }
}
