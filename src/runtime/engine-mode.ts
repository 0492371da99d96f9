// The engine settings a compiled core runs with: JavaScriptCore's mini VM mode, which grows the heap by a
// smaller factor between collections (1.27 instead of 2). It keeps the core's anonymous memory ~7 MB lower
// at 100 one-line turns and ~12 MB at 300, at the price of a full collection every few turns (24 in 100,
// each pausing 3-6 ms: ~0.9 ms a turn on average). So the two kinds of session get two settings:
// - the console and `i acp` (an editor's agent) live long and wait on a person: the smallest heap, its
//   collections falling while the model answers;
// - a print run (`-p`: scripts, CI, benchmark harnesses) waits on nobody: the same mode with the heap
//   grown by 1.8, which collects a few times a run (per turn as fast as the default, 300 turns 78.9
//   against 83.7 MB tree PSS with the default, 74.4 with 1.27).
// The one-shot commands (`--version`, doctor, compact…) keep the engine's defaults and their first image.
//
// The engine reads its options once, from the environment, when the process starts, and the build has no
// flag for these: so the executable, at start, replaces itself (execve: same pid, same terminal, nothing
// left behind; about an `i --version` of time) with an image whose environment sets them, before it has
// read anything or started any child. The new image drops the variables from process.env at once, so tool
// commands never inherit them (the built-in worker is given the mode on purpose, see worker/env.ts). The
// optimising compiler's warm-up thresholds are raised the same way (ENGINE_VARS in lib/engine-mode-env.ts).
//
// Only the compiled executable does this (as only it has the build's JIT policy); from source, and
// when the user set the variable themselves, nothing changes.
import {
  ENGINE_VARS,
  ENGINE_MARK_VAR as MARK_VAR,
  MINI_VM_VAR,
  PRINT_ENGINE_VARS,
} from "../lib/engine-mode-env.ts";
import { isCompiled, runtimeName, selfArgv } from "./runtime.ts";

export { MINI_VM_VAR };

/** What a command runs: a long-lived session, a print run, or neither (a one-shot command). */
export type SessionKind = "session" | "print" | undefined;

/**
 * The kind of what `args` runs: the console (the root command without -p/--print) and `i acp` are
 * sessions, the root command with -p a print run. `subcommand` tells a subcommand's name from a prompt.
 */
export function sessionKind(args: readonly string[], subcommand: (name: string) => boolean): SessionKind {
  const first = args[0] ?? "";
  if (first === "acp") return "session";
  if (first !== "run" && subcommand(first)) return undefined;
  return args.some((a) => a === "-p" || a === "--print" || a.startsWith("--print=")) ? "print" : "session";
}

/**
 * The environment to re-execute with, or undefined to go on as this image is: a session or a print run
 * restarts with its settings; `--version` and the one-shot commands keep their first image.
 */
export function engineRestartEnv(
  env: NodeJS.ProcessEnv,
  opts: { compiled: boolean; kind: SessionKind },
): NodeJS.ProcessEnv | undefined {
  if (!opts.compiled || opts.kind === undefined) return undefined;
  if (env[MARK_VAR] !== undefined || env[MINI_VM_VAR] !== undefined) return undefined;
  return { ...env, ...(opts.kind === "print" ? PRINT_ENGINE_VARS : ENGINE_VARS), [MARK_VAR]: "1" };
}

/**
 * At start: re-execute in mini VM mode when that applies (does not return then); in the re-executed
 * image, drop the engine's variables and the mark from process.env. A runtime without execve goes on unchanged.
 */
export function applyEngineMode(args: readonly string[], kind: SessionKind): void {
  if (process.env[MARK_VAR] !== undefined) {
    delete process.env[MARK_VAR];
    for (const k of Object.keys(PRINT_ENGINE_VARS)) delete process.env[k];
    return;
  }
  if (runtimeName !== "bun" || process.platform === "win32") return;
  const env = engineRestartEnv(process.env, { compiled: isCompiled(), kind });
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
