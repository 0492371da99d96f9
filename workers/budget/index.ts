// The built-in `budget` module: adds `budget` (estimates, hard limit, recommendation, next hysteresis
// state) to the data and returns everything it received, as every budget provider must.
import { MODULES } from "../../src/contract/registry.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { computeBudget } from "./compute.ts";
import { BudgetInputParser } from "./parse-input.ts";

const input = new BudgetInputParser();

export const budgetModule = defineWorkerModule({
  name: "budget",
  payloads: MODULES.budget.payloads,
  hooks: {
    budget(data) {
      const budget = computeBudget(input.parse(data));
      // The core restores the history and drops history_summary from the reply: no need to send it back.
      const { history_summary: _summary, ...rest } = data;
      return { ...rest, budget };
    },
  },
});
