// The variables of the compiled core's engine mode (the engine's own options, which keep its memory
// smaller) and our mark that says the process was started with them on purpose, so it drops them all at
// once (tool commands never inherit them) instead of re-executing itself.
export const MINI_VM_VAR = "BUN_JSC_forceMiniVMMode";
export const ENGINE_MARK_VAR = "I_ENGINE_MODE_SET";

/**
 * The engine's options the compiled core runs with. Mini VM mode grows the heap by a smaller factor
 * between collections. The two thresholds (JavaScriptCore's default is 1,000) make the optimising
 * compiler wait for far more warm-up, so code a session runs a few hundred times is not optimised, which
 * holds memory and gains nothing a turn can measure: S1 tree PSS 74.3 -> 71.7 MB (5 runs), 1,000 turns
 * 9.93 -> 9.92 ms per turn (3 runs, same run).
 */
export const ENGINE_VARS: Readonly<Record<string, string>> = {
  [MINI_VM_VAR]: "1",
  BUN_JSC_thresholdForOptimizeAfterWarmUp: "10000",
  BUN_JSC_thresholdForOptimizeAfterLongWarmUp: "10000",
};

/** A print run's settings: the same, with the heap grown by 1.8 instead of 1.27 (runtime/engine-mode.ts). */
export const PRINT_ENGINE_VARS: Readonly<Record<string, string>> = {
  ...ENGINE_VARS,
  BUN_JSC_miniVMHeapGrowthFactor: "1.8",
};

/**
 * What a process that runs in mini VM mode itself adds to the environment of an `i` it starts (a task's
 * child session): the child begins in that mode and skips the re-execution a new session would do (one
 * process start less before its first request). Nothing when this process does not run in that mode.
 */
export function engineModeForChild(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return env[MINI_VM_VAR] === "1" ? { ...ENGINE_VARS, [ENGINE_MARK_VAR]: "1" } : {};
}
