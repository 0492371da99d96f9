// The built-in `budget` module: adds `budget` (estimates, hard limit, recommendation, next hysteresis
// state) to the data and returns everything it received, as every budget provider must.
import { BudgetInput } from "../../src/compaction/schemas.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { computeBudget } from "./compute.ts";

export const budgetModule = defineWorkerModule({
  name: "budget",
  hooks: {
    budget(data) {
      const parsed = BudgetInput.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`budget: invalid input at ${issue?.path.join(".") || "data"}: ${issue?.message}`);
      }
      return { ...data, budget: computeBudget(parsed.data) };
    },
  },
});
