// What one hook run means, in Claude Code's terms: exit 0 goes on (its stdout is context for the events
// that take it), exit 2 blocks with stderr as the reason, any other exit is a warning and the work goes on;
// JSON on stdout ({"decision":"block","reason"}) means the same as exit 2. A hook past its timeout or one
// that could not start is a warning too.
import { isRecord } from "../../src/lib/is-record.ts";
import type { HookRun } from "./run-command.ts";

/** Longest reason, context or warning text one hook contributes. */
export const HOOK_TEXT_MAX_CHARS = 10_000;

export type Outcome =
  | { kind: "ok"; context?: string }
  | { kind: "block"; reason: string }
  | { kind: "warning"; message: string };

function cap(text: string, dropped = 0): string {
  const t = text.trim();
  const over = t.length > HOOK_TEXT_MAX_CHARS;
  if (!over && dropped === 0) return t;
  return `${over ? t.slice(0, HOOK_TEXT_MAX_CHARS) : t}\n[… output cut: hooks may print at most ${HOOK_TEXT_MAX_CHARS} characters]`;
}

/** The JSON a hook may print instead of using exit codes (Claude Code's fields that apply here). */
function jsonOutcome(stdout: string): Outcome | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(v)) return undefined;
  const specific = isRecord(v.hookSpecificOutput) ? v.hookSpecificOutput : {};
  const str = (x: unknown) => (typeof x === "string" ? x : undefined);
  if (v.decision === "block" || specific.permissionDecision === "deny" || v.continue === false) {
    const reason =
      str(v.reason) ?? str(specific.permissionDecisionReason) ?? str(v.stopReason) ?? "blocked by a hook";
    return { kind: "block", reason: cap(reason) };
  }
  const context = str(specific.additionalContext);
  return context ? { kind: "ok", context: cap(context) } : { kind: "ok" };
}

function lastLines(text: string): string {
  const lines = text
    .trim()
    .split("\n")
    .filter((l) => l.trim() !== "");
  return lines.slice(-3).join(" / ");
}

export function outcomeOf(run: HookRun, timeoutMs: number): Outcome {
  if (run.startError) return { kind: "warning", message: `could not start: ${run.startError}` };
  if (run.timedOut)
    return {
      kind: "warning",
      message: `killed after ${timeoutMs / 1000} s (its timeout); nothing was blocked`,
    };
  if (run.code === 2) return { kind: "block", reason: cap(run.stderr, 0) || "blocked by a hook (exit 2)" };
  if (run.code === 0) return jsonOutcome(run.stdout) ?? { kind: "ok", context: cap(run.stdout, run.dropped) };
  const said = lastLines(run.stderr) || lastLines(run.stdout);
  const how = run.code === null ? "was killed by a signal" : `exited with code ${run.code}`;
  return { kind: "warning", message: cap(`${how}${said ? `: ${said}` : ""}`) };
}
