// The two variables of the compiled core's engine mode (JavaScriptCore's mini VM mode, which keeps its
// heap smaller): the engine's own option, and our mark that says the process was started with it on
// purpose, so it drops both at once (tool commands never inherit them) instead of re-executing itself.
export const MINI_VM_VAR = "BUN_JSC_forceMiniVMMode";
export const ENGINE_MARK_VAR = "I_ENGINE_MODE_SET";

/**
 * What a process that runs in mini VM mode itself adds to the environment of an `i` it starts (a task's
 * child session): the child begins in that mode and skips the re-execution a new session would do (one
 * process start less before its first request). Nothing when this process does not run in that mode.
 */
export function engineModeForChild(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return env[MINI_VM_VAR] === "1" ? { [MINI_VM_VAR]: "1", [ENGINE_MARK_VAR]: "1" } : {};
}
