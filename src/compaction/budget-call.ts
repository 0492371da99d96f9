// Running the `budget` hook and reading its answer. The core never invents an estimate: without a budget
// module there is no comparable figure, and compaction cannot be checked, so it cannot run.

import type { BudgetModel, BudgetPolicy, BudgetResult, UsageSample } from "../contract/compaction.ts";
import type { ModelInfo } from "../contract/config.ts";
import { errorMessage } from "../contract/errors.ts";
import type { History } from "../contract/history.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import { systemText } from "../lib/estimator.ts";
import type { HookData, HookRunner } from "../worker/types.ts";
import { CompactionError } from "./errors.ts";

export interface BudgetCall {
  history: History;
  tools: readonly ToolDecl[];
  usage?: UsageSample;
  armed: boolean;
  /** override the policy (the summary request reserves room for the summary instead) */
  policy?: BudgetPolicy;
}

export interface BudgetReading {
  /** everything the budget pipeline returned (what compact_plan receives) */
  data: HookData;
  budget: BudgetResult;
}

export function budgetModel(model: ModelInfo & { name: string }): BudgetModel {
  const m: BudgetModel = { name: model.name, context_window: model.context_window };
  if (model.max_output_tokens !== undefined) m.max_output_tokens = model.max_output_tokens;
  if (model.images !== undefined) m.images = model.images;
  if (model.image_tokens !== undefined) m.image_tokens = model.image_tokens;
  return m;
}

/** The figure the ratio and recommendation are based on: calibrated when the provider says so. */
export function effectiveTotal(b: BudgetResult): number {
  return b.effective_total ?? b.estimates.total;
}

/** Scale from raw estimate to real tokens observed for this session (1 when uncalibrated). */
export function calibrationFactor(b: BudgetResult): number {
  if (b.calibration_factor !== undefined) return b.calibration_factor;
  return b.estimates.total > 0 ? effectiveTotal(b) / b.estimates.total : 1;
}

export function sameEstimator(a: BudgetResult, b: BudgetResult): boolean {
  return a.estimator.id === b.estimator.id && a.estimator.version === b.estimator.version;
}

/** Run the budget pipeline. Throws CompactionError("budget") when it fails or answers malformed data. */
export async function readBudget(
  hooks: HookRunner,
  model: BudgetModel,
  policy: BudgetPolicy,
  call: BudgetCall,
): Promise<BudgetReading> {
  const first = call.history[0];
  const input: HookData = {
    model,
    policy: call.policy ?? policy,
    // Always the text, so a budget module that declared it needs only a summary of the history has it.
    ...(first ? { system: systemText(first) } : {}),
    tools: call.tools,
    history: call.history,
    state: { armed: call.armed },
  };
  if (call.usage) input.usage = call.usage;
  try {
    // The host has checked the reply against the budget hook's schema: `budget` is a BudgetResult.
    const data = await hooks.runHook("budget", input);
    return { data, budget: data.budget };
  } catch (err) {
    throw new CompactionError("budget", errorMessage(err));
  }
}
