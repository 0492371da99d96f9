// The built-in `budget` module: adds `budget` (estimates, hard limit, recommendation, next hysteresis
// state) to the data and returns everything it received, as every budget provider must.
import { BudgetInput } from "../../src/contract/compaction.ts";
import { MODULES } from "../../src/contract/registry.ts";
import { isHistorySummary } from "../../src/lib/summary-check.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { computeBudget } from "./compute.ts";

/** The input without its summary: that one is checked by hand when it passes (see summary-check.ts). */
const BudgetInputRest = BudgetInput.omit({ history_summary: true });

function parseInput(data: Record<string, unknown>): BudgetInput {
  const summary = data.history_summary;
  if (!isHistorySummary(summary)) return parseHookData("budget", BudgetInput, data);
  return { ...parseHookData("budget", BudgetInputRest, data), history_summary: summary };
}

export const budgetModule = defineWorkerModule({
  name: "budget",
  payloads: MODULES.budget.payloads,
  hooks: {
    budget(data) {
      const budget = computeBudget(parseInput(data));
      // The core restores the history and drops history_summary from the reply: no need to send it back.
      const { history_summary: _summary, ...rest } = data;
      return { ...rest, budget };
    },
  },
});
