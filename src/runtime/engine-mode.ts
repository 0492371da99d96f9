// The engine setting a long-lived compiled core runs with: JavaScriptCore's mini VM mode, which grows the
// heap by a smaller factor between collections. Measured on the compiled binary, it keeps the core's
// anonymous memory ~6-7 MB lower (S0 and S1 of scripts/bench) at the price of a full collection every few
// turns (24 in 100 one-line turns, each pausing 3-6 ms: ~0.9 ms a turn on average) and of a second process
// start (~10 ms before the first request). So only the sessions that live long and wait on a person run
// in it: the console and `i acp` (an editor's agent), whose start is far below what a person notices and
// whose collections fall while the model is answering. A print run (`-p`: scripts, CI, benchmark
// harnesses) and the one-shot commands keep the engine's defaults, for their start and their throughput.
//
// The engine reads its options once, from the environment, when the process starts, and the build has no
// flag for this one: so the executable, at start, replaces itself (execve: same pid, same terminal,
// nothing left behind) with an image whose environment sets it, before it has read anything or started
// any child. The new image drops the variable from process.env at once, so tool commands never inherit it
// (the built-in worker is given it on purpose, see worker/env.ts). The optimising compiler's warm-up
// thresholds are raised the same way (ENGINE_VARS in lib/engine-mode-env.ts).
//
// Only the compiled executable does this (as only it has the build's JIT policy); from source, and
// when the user set the variable themselves, nothing changes.
import { ENGINE_VARS, ENGINE_MARK_VAR as MARK_VAR, MINI_VM_VAR } from "../lib/engine-mode-env.ts";
import { isCompiled, runtimeName, selfArgv } from "./runtime.ts";

export { MINI_VM_VAR };

/**
 * Whether the command `args` names runs a session that lives long and waits on a person: the console
 * (the root command without -p/--print) and `i acp`. `subcommand` tells a subcommand's name from a prompt.
 */
export function longLived(args: readonly string[], subcommand: (name: string) => boolean): boolean {
  const first = args[0] ?? "";
  if (first === "acp") return true;
  if (first !== "run" && subcommand(first)) return false;
  return !args.some((a) => a === "-p" || a === "--print" || a.startsWith("--print="));
}

/**
 * The environment to re-execute with, or undefined to go on as this image is: only a long-lived session
 * (see `longLived`) restarts; `--version`, print runs and the one-shot commands keep their first image.
 */
export function engineRestartEnv(
  env: NodeJS.ProcessEnv,
  opts: { compiled: boolean; longLived: boolean },
): NodeJS.ProcessEnv | undefined {
  if (!opts.compiled || !opts.longLived) return undefined;
  if (env[MARK_VAR] !== undefined || env[MINI_VM_VAR] !== undefined) return undefined;
  return { ...env, ...ENGINE_VARS, [MARK_VAR]: "1" };
}

/**
 * At start: re-execute in mini VM mode when that applies (does not return then); in the re-executed
 * image, drop the two variables from process.env. A runtime without execve goes on unchanged.
 */
export function applyEngineMode(args: readonly string[], longLivedSession: boolean): void {
  if (process.env[MARK_VAR] !== undefined) {
    delete process.env[MARK_VAR];
    for (const k of Object.keys(ENGINE_VARS)) delete process.env[k];
    return;
  }
  if (runtimeName !== "bun" || process.platform === "win32") return;
  const env = engineRestartEnv(process.env, { compiled: isCompiled(), longLived: longLivedSession });
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
