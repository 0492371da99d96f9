// The errors compaction reports. Each names the pipeline step and the cause, so the user can tell a
// misbehaving replacement compactor from a provider failure or an over-full context.

/** The pipeline steps, in order (plan, prepare, summarise, postprocess, commit, with the checks between). */
export type CompactionStep =
  | "budget"
  | "compact_plan"
  | "before_compact"
  | "summary_request"
  | "after_compact"
  | "before_compact_commit"
  | "validate"
  | "commit";

/** A failed compaction: nothing was committed, no tool was replayed, the last checkpoint is intact. */
export class CompactionError extends Error {
  readonly kind = "compaction_failed";
  constructor(
    readonly step: CompactionStep,
    /** the cause alone */
    readonly detail: string,
  ) {
    super(`compaction failed at ${step}: ${detail}`);
    this.name = "CompactionError";
  }
}

/** The budget check before a model request failed; no compaction was running. */
export class BudgetCheckError extends Error {
  readonly kind = "budget_failed";
  constructor(
    /** the cause alone */
    readonly detail: string,
  ) {
    super(`the budget check before the model request failed: ${detail}`);
    this.name = "BudgetCheckError";
  }
}

/** The request would exceed the hard context budget and nothing could make it fit; raised before any HTTP. */
export class BudgetExceededError extends Error {
  readonly kind = "budget_exceeded";
  constructor(
    readonly total: number,
    readonly hardLimit: number,
    /** why compaction did not help */
    readonly why: string,
  ) {
    super(
      `context budget exceeded: the next request needs about ${total} tokens, over the hard limit of ${hardLimit} (context window minus reserve); ${why}. No request was sent`,
    );
    this.name = "BudgetExceededError";
  }
}
