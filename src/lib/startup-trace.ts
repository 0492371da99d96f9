// A diagnostic for scripts/bench/task-startup.ts: with I_DEBUG_STARTUP set, a process writes to stderr
// when it reached each step of its startup (`startup <ms since its start> <epoch ms> <step>`), so the
// bench can say where a child task's first request waits; the built-in worker process gets the variable
// too (src/worker/env.ts), and its lines land in its log. Without the variable a mark is one comparison.
export const STARTUP_TRACE_VAR = "I_DEBUG_STARTUP";

const on = process.env[STARTUP_TRACE_VAR] !== undefined;

export function startupMark(step: string): void {
  if (!on) return;
  const ms = performance.now();
  process.stderr.write(`startup ${ms.toFixed(1)} ${(performance.timeOrigin + ms).toFixed(1)} ${step}\n`);
}
