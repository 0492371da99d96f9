// The built-in `plan` module: the `plan` tool. The model sends its whole plan each time (every step with
// its status); the tool checks it (at most one step in progress) and answers with the plan as a short
// checklist, which is what the model sees. The console draws the same call as a live checklist; the
// session keeps it in the history, as the call's arguments.
import type { PlanInput } from "../../src/contract/registry.ts";
import { defineWorkerModule, toolError, toolText } from "../sdk/module.ts";
import { defineTool } from "../sdk/tool.ts";

const MARK = { pending: "[ ]", in_progress: "[~]", done: "[x]" } as const;

/** The plan as the model reads it back: one line per step, and where it stands. */
export function planText(input: PlanInput): string {
  const done = input.steps.filter((s) => s.status === "done").length;
  const lines = input.steps.map(
    (s, i) => `${MARK[s.status]} ${i + 1}. ${s.step.replace(/\s+/g, " ").trim()}`,
  );
  return `plan updated: ${done} of ${input.steps.length} done\n${lines.join("\n")}`;
}

export const planModule = defineWorkerModule({
  name: "plan",
  hooks: {},
  tools: [
    defineTool("plan", "plan", (args) => {
      const busy = args.steps.filter((s) => s.status === "in_progress").length;
      if (busy > 1)
        return toolError(
          `plan: ${busy} steps are in_progress; keep one in progress at a time (mark the others pending or done) and send the whole plan again`,
        );
      return toolText(planText(args));
    }),
  ],
});
