// The checks a compactor cannot bypass, whoever wrote it: where it may cut, and what a candidate history must
// satisfy before it replaces the session's history.

import type { BudgetModel, BudgetResult } from "../contract/compaction.ts";
import type { History, Message } from "../contract/history.ts";
import { textTokens } from "../lib/estimator.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { isSafeCut } from "../lib/tool-batches.ts";
import { validateHistory } from "../lib/validate-history.ts";
import { calibrationFactor, sameEstimator } from "./budget-call.ts";
import { CompactionError } from "./errors.ts";
import { capRule } from "./summary-cap.ts";

/** `2 <= cut < history.length`, an integer, at a user or assistant message, splitting no tool batch. */
export function checkCut(history: History, cut: unknown): number {
  const fail = (why: string) =>
    new CompactionError("compact_plan", `the compactor returned cut ${JSON.stringify(cut)}: ${why}`);
  if (typeof cut !== "number" || !Number.isInteger(cut))
    throw fail("it must be an integer message index or null");
  if (cut < 2)
    throw fail("it must be at least 2 (history[0] is the system message and something must be summarised)");
  if (cut >= history.length) throw fail(`it must be below the history length ${history.length}`);
  const role = history[cut]?.role;
  if (role !== "user" && role !== "assistant")
    throw fail(`history[${cut}] is a ${role} message; a cut must start at a user or assistant message`);
  if (!isSafeCut(history, cut))
    throw fail("it falls inside a tool batch (a tool call would lose its result)");
  return cut;
}

/** The summary may not crowd out the context it is meant to free: at most `cap` (summary-cap.ts). */
export function checkSummarySize(summary: string, cap: number, model: BudgetModel): void {
  const tokens = Math.ceil(textTokens(summary));
  if (tokens > cap) {
    throw new CompactionError(
      "after_compact",
      `the summary is oversized: about ${tokens} tokens, over this compaction's cap of ${cap} (${capRule(model)})`,
    );
  }
}

/**
 * The candidate must be a valid history that keeps the system message and the recent suffix untouched,
 * with something between them (the summary).
 */
export function checkCandidateShape(candidate: History, history: History, cut: number): void {
  const reason = validateHistory(candidate);
  if (reason !== undefined)
    throw new CompactionError("validate", `the candidate history is invalid: ${reason}`);
  if (!jsonEqual(candidate[0], history[0])) {
    throw new CompactionError(
      "validate",
      "the candidate changed the system message (history[0]); it must stay untouched",
    );
  }
  const suffixLength = history.length - cut;
  const start = candidate.length - suffixLength;
  if (start < 2) {
    throw new CompactionError(
      "validate",
      "the candidate lost the summary message or part of the recent suffix",
    );
  }
  for (let i = 0; i < suffixLength; i++) {
    if (!jsonEqual(candidate[start + i], history[cut + i])) {
      throw new CompactionError(
        "validate",
        `the candidate changed the recent suffix (history[${cut + i}]); only the part before the cut may be replaced`,
      );
    }
  }
}

/** Comparable (same estimator), strictly smaller than the baseline, and within the hard limit. */
export function checkCandidateBudget(baseline: BudgetResult, after: BudgetResult): number {
  if (!sameEstimator(baseline, after)) {
    const id = (b: BudgetResult) => `${b.estimator.id}@${b.estimator.version}`;
    throw new CompactionError(
      "validate",
      `the estimates are not comparable: baseline from ${id(baseline)}, candidate from ${id(after)}`,
    );
  }
  if (after.estimates.total >= baseline.estimates.total) {
    throw new CompactionError(
      "validate",
      `the candidate does not reduce the context: about ${after.estimates.total} tokens, not below the ${baseline.estimates.total} before compaction`,
    );
  }
  // The candidate has no usage of its own yet: scale it as the baseline was calibrated.
  const effective = Math.ceil(after.estimates.total * calibrationFactor(baseline));
  if (effective > after.hard_limit) {
    throw new CompactionError(
      "validate",
      `the candidate does not fit: about ${effective} tokens, over the hard limit of ${after.hard_limit}`,
    );
  }
  return effective;
}

/**
 * The prune route may only shorten tool outputs: the same messages in the same order, every field but a
 * tool message's text content unchanged, and that content no longer than before. So a prune can free
 * context but cannot lose or rewrite a word of the conversation.
 */
export function checkPruned(original: readonly Message[], pruned: unknown): Message[] {
  const fail = (why: string) =>
    new CompactionError("before_compact", `the pruned messages are not a pruning of the span: ${why}`);
  if (!Array.isArray(pruned)) throw fail("pruned must be a list of messages");
  if (pruned.length !== original.length)
    throw fail(`${pruned.length} messages came back for the ${original.length} sent`);
  for (let i = 0; i < original.length; i++) {
    const was = original[i] as Message;
    const now = pruned[i] as Message | undefined;
    if (now === was) continue;
    if (typeof now !== "object" || now === null) throw fail(`pruned[${i}] is not a message`);
    const { content: wasContent, ...wasRest } = was;
    const { content: nowContent, ...nowRest } = now;
    if (!jsonEqual(nowRest, wasRest)) throw fail(`pruned[${i}] changed more than its content`);
    if (jsonEqual(nowContent, wasContent)) continue;
    if (was.role !== "tool" || typeof wasContent !== "string" || typeof nowContent !== "string")
      throw fail(
        `pruned[${i}] is a ${was.role} message; only the text output of tool messages may be shortened`,
      );
    if (nowContent.length >= wasContent.length) throw fail(`pruned[${i}] is not shorter than before`);
  }
  return pruned as Message[];
}
