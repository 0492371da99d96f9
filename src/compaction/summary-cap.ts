// How long a summary may be. A fixed share of the window (the old rule) made long sessions forget: once
// the facts worth keeping outgrew a quarter of the window, every summary was sent back to be condensed
// and the summariser had to drop the oldest facts, although the window still had room for them. The cap
// is instead what the window can afford: the hard limit (the window less the output reserve) less the
// parts the candidate keeps anyway — the system message, the tool declarations, the recent suffix — and
// an allowance for what the commit restores (the user's messages, file snapshots). It is never below the
// fixed rule (a quarter of the window, at most SUMMARY_MAX_TOKENS), so no summary accepted before is
// refused now — unless the candidate could not hold even that beside what it keeps — and never above a third of the window, so a later summary request still holds the
// previous summary whole next to new material and the room for its answer. Condensing is the exception:
// a model summary is condensed only past most of that room (summary-condense.ts), so the window is left
// to the work between compactions.
import type { BudgetModel, BudgetResult } from "../contract/compaction.ts";
import type { History } from "../contract/history.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import { estimateRequest, MESSAGE_OVERHEAD, textTokens } from "../lib/estimator.ts";
import { calibrationFactor } from "./budget-call.ts";
import { wrapSummary } from "./transcript.ts";

/** The fixed cap's ceiling whatever the window (one compact message, as codex caps it). */
export const SUMMARY_MAX_TOKENS = 20_000;
/** The fixed cap's share of the context window. */
export const SUMMARY_MAX_WINDOW_SHARE = 0.25;
/** The affordable cap never exceeds this share of the window. */
export const SUMMARY_AFFORDABLE_MAX_SHARE = 1 / 3;
/**
 * Room kept for what before_compact_commit restores, as a share of the hard limit. A planning figure,
 * not a bound: the candidate's fit is still checked exactly, restoration included.
 */
export const RESTORE_ALLOWANCE_SHARE = 0.05;

/** The cap that holds whatever the context: a quarter of the window, at most SUMMARY_MAX_TOKENS. */
export function fixedSummaryCap(model: BudgetModel): number {
  return Math.max(
    1,
    Math.min(SUMMARY_MAX_TOKENS, Math.floor(model.context_window * SUMMARY_MAX_WINDOW_SHARE)),
  );
}

export interface SummaryCapInput {
  model: BudgetModel;
  /** the comparable reading of the history before compaction (hard limit, calibration) */
  baseline: BudgetResult;
  /** estimated tokens the candidate keeps besides the summary: system message, tools, recent suffix */
  kept: number;
}

/** What the estimator counts for the parts of a candidate that are not the summary. */
export function keptTokens(
  history: History,
  cut: number,
  tools: readonly ToolDecl[],
  model: BudgetModel,
): number {
  return estimateRequest([history[0], ...history.slice(cut)], undefined, tools, model.image_tokens).total;
}

/** The summary cap of one compaction, in estimator tokens (the unit the summary is measured in). */
export function summaryCap(input: SummaryCapInput): number {
  const fixed = fixedSummaryCap(input.model);
  const factor = calibrationFactor(input.baseline);
  // The hard limit is in real tokens; the summary is measured by the estimator.
  const hard = Math.floor(input.baseline.hard_limit / factor);
  const allowance = Math.ceil((RESTORE_ALLOWANCE_SHARE * input.baseline.hard_limit) / factor);
  const affordable = hard - input.kept - allowance;
  const ceiling = Math.floor(input.model.context_window * SUMMARY_AFFORDABLE_MAX_SHARE);
  // The fixed rule yields only where the candidate could not hold it at all: a summary longer than the
  // hard limit leaves over what is kept fails the fit check whatever is restored, so asking for less
  // (and condensing to it) is the one way such a compaction can succeed.
  // A suffix that leaves no room at all is beyond any summary: the fit check names it.
  const cap = Math.max(fixed, Math.min(affordable, ceiling));
  const holds = hard - input.kept - summaryFrameTokens();
  return holds >= 1 ? Math.min(cap, holds) : cap;
}

/** What the summary message costs besides the summary itself: its wrapper and the message framing. */
function summaryFrameTokens(): number {
  return Math.ceil(MESSAGE_OVERHEAD + textTokens(wrapSummary("")));
}

/** The rule in words, for errors and notes. */
export function capRule(model: BudgetModel): string {
  return `the room the hard limit leaves after the system message, tools, recent suffix and ${RESTORE_ALLOWANCE_SHARE * 100}% of the hard limit for restored messages; never below ${fixedSummaryCap(model)} (a quarter of the ${model.context_window}-token window, at most ${SUMMARY_MAX_TOKENS}) unless the candidate could not hold that, nor above a third of the window`;
}
