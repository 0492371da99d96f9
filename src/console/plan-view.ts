// The model's plan (its `plan` tool) as a checklist in the live region above the prompt: redrawn in place
// at each call, kept for the session, shown again on resume. A finished plan folds to one line. Steps are
// the model's text: cleaned before they are drawn.
import type { History } from "../contract/history.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate } from "../terminal/width.ts";
import type { Component } from "./ui/screen.ts";

export type PlanStatus = "pending" | "in_progress" | "done";
export interface PlanStep {
  step: string;
  status: PlanStatus;
}

/** The steps of a `plan` call's arguments; undefined when they are not a plan. */
export function planSteps(args: string): PlanStep[] | undefined {
  try {
    const v = JSON.parse(args) as { steps?: unknown };
    if (!Array.isArray(v.steps)) return undefined;
    const steps = v.steps.flatMap((s): PlanStep[] => {
      const o = s as { step?: unknown; status?: unknown };
      const ok = o.status === "pending" || o.status === "in_progress" || o.status === "done";
      return typeof o.step === "string" && ok ? [{ step: o.step, status: o.status as PlanStatus }] : [];
    });
    return steps.length > 0 ? steps : undefined;
  } catch {
    return undefined;
  }
}

/** The last plan the model sent in `history`, if any. */
export function lastPlan(history: Readonly<History>): PlanStep[] | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const calls = history[i]?.tool_calls ?? [];
    for (let j = calls.length - 1; j >= 0; j--) {
      const c = calls[j];
      if (c?.name !== "plan") continue;
      const steps = planSteps(c.arguments);
      if (steps) return steps;
    }
  }
  return undefined;
}

/** "2 of 5 done". */
export function planProgress(steps: readonly PlanStep[]): string {
  return `${steps.filter((s) => s.status === "done").length} of ${steps.length} done`;
}

export class PlanView implements Component {
  steps: PlanStep[] = [];

  constructor(private readonly s: Style) {}

  render(width: number): string[] {
    const { s } = this;
    if (this.steps.length === 0) return [];
    const all = this.steps.every((x) => x.status === "done");
    if (all) return [truncate(s.dim(`☑ plan: ${planProgress(this.steps)}`), width)];
    return [
      truncate(s.bold(`plan · ${planProgress(this.steps)}`), width),
      ...this.steps.map((x) => {
        const text = sanitizeLine(x.step);
        const line =
          x.status === "done"
            ? s.dim(`  ☑ ${text}`)
            : x.status === "in_progress"
              ? s.cyan(`  ▸ ${text}`)
              : `  ☐ ${text}`;
        return truncate(line, width);
      }),
    ];
  }
}
