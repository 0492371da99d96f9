// The built-in budget policy: estimate the request, calibrate with real usage, and recommend compaction
// with high-watermark hysteresis (trigger at trigger_ratio of the hard limit; once fired, re-arm only
// after usage falls below rearm_ratio, so a compaction that cannot get far enough does not repeat on
// every request).

import type {
  BudgetInput,
  BudgetModel,
  BudgetResult,
  Recommendation,
} from "../../src/contract/compaction.ts";
import type { HistorySummary } from "../../src/contract/protocol.ts";
import { calibrate, ESTIMATOR, estimateFromTallies, estimateRequest } from "../../src/lib/estimator.ts";

/** Room for the answer when budget.json sets no reserve_tokens: the model's output cap, bounded. */
export const DEFAULT_OUTPUT_RESERVE = 8192;
export const MAX_DEFAULT_RESERVE = 32000;

export function defaultReserve(model: BudgetModel): number {
  const wanted = Math.min(model.max_output_tokens ?? DEFAULT_OUTPUT_RESERVE, MAX_DEFAULT_RESERVE);
  // Never let the default reserve eat more than a quarter of a small window.
  return Math.min(wanted, Math.floor(model.context_window / 4));
}

export function computeBudget(input: BudgetInput): BudgetResult {
  const { model, policy } = input;
  const reserve = policy.reserve_tokens ?? defaultReserve(model);
  const hardLimit = model.context_window - reserve;
  if (hardLimit <= 0) {
    throw new Error(
      `budget.json: reserve_tokens ${reserve} leaves no room in the ${model.context_window}-token window of model ${model.name}; lower reserve_tokens`,
    );
  }
  const { history, history_summary: summary } = input;
  if (!history && !summary) throw new Error("budget: the data holds neither a history nor a history_summary");
  const length = history ? history.length : (summary?.count ?? 0);
  const usage = input.usage;
  const usable = usage !== undefined && usage.messages <= length ? usage : undefined;
  const tools = input.tools ?? [];
  const est = history
    ? estimateRequest(history, input.system, tools, model.image_tokens, usable?.messages)
    : estimateFromTallies(
        summary as HistorySummary,
        input.system,
        tools,
        model.image_tokens,
        usable?.messages,
      );
  const cal = usable ? calibrate(est, usable.input_tokens) : undefined;
  const effective = cal?.total ?? est.total;
  const ratio = effective / hardLimit;

  const armedBefore = input.state?.armed ?? true;
  let recommendation: Recommendation = "none";
  let armed = armedBefore || ratio < policy.rearm_ratio;
  if (effective > hardLimit) {
    recommendation = "over";
    armed = false;
  } else if (armed && ratio >= policy.trigger_ratio) {
    recommendation = "compact";
    armed = false;
  }

  const result: BudgetResult = {
    // From a summary, the tallies are the core's: its estimator is the one to name.
    estimator: history ? { ...ESTIMATOR } : { ...(summary as HistorySummary).estimator },
    estimates: {
      total: est.total,
      system: est.system,
      tools: est.tools,
      messages: est.messages,
      images: est.images,
    },
    effective_total: effective,
    context_window: model.context_window,
    reserve,
    hard_limit: hardLimit,
    ratio,
    recommendation,
    armed,
    calibrated: cal !== undefined,
  };
  if (cal) result.calibration_factor = cal.factor;
  // Never guess what an image costs: say the estimate leaves them out.
  if (est.image_parts > 0 && model.image_tokens === undefined) result.images_unknown = true;
  return result;
}
