// The built-in `budget` module: adds `budget` (estimates, hard limit, recommendation, next hysteresis
// state) to the data and returns everything it received, as every budget provider must.
import { BudgetInput } from "../../src/contract/compaction.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { computeBudget } from "./compute.ts";

export const budgetModule = defineWorkerModule({
  name: "budget",
  hooks: {
    budget(data) {
      return { ...data, budget: computeBudget(parseHookData("budget", BudgetInput, data)) };
    },
  },
});
