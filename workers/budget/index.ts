// The built-in `budget` module: adds `budget` (estimates, hard limit, recommendation, next hysteresis
// state) to the data and returns everything it received, as every budget provider must.
import { BudgetInput } from "../../src/contract/compaction.ts";
import { MODULES } from "../../src/contract/registry.ts";
import { isRecord } from "../../src/lib/is-record.ts";
import { isHistorySummary } from "../../src/lib/summary-check.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { computeBudget } from "./compute.ts";

/**
 * The input without its summary and tools: those are checked by hand when they pass (see
 * summary-check.ts; a declaration needs a name). The tools are tens of KB with an MCP server's, every
 * request: the schema would copy each of them only to say what this check says.
 */
const BudgetInputRest = BudgetInput.unwrap().omit({ history_summary: true, tools: true });

function toolsOk(tools: unknown): tools is BudgetInput["tools"] {
  return (
    tools === undefined ||
    (Array.isArray(tools) && tools.every((t) => isRecord(t) && typeof t.name === "string"))
  );
}

function parseInput(data: Record<string, unknown>): BudgetInput {
  const summary = data.history_summary;
  const tools = data.tools;
  // Anything unusual gets the full schema, and its one-line error.
  if (!toolsOk(tools) || (summary !== undefined && !isHistorySummary(summary)))
    return parseHookData("budget", BudgetInput, data);
  return {
    ...parseHookData("budget", BudgetInputRest, data),
    ...(tools ? { tools } : {}),
    ...(summary !== undefined ? { history_summary: summary } : {}),
  };
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
