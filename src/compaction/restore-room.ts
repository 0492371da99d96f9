// The room before_compact_commit may fill. What the commit restores (the user's messages, file snapshots,
// notes) is sized by what the hard limit leaves over the draft candidate, measured by the same budget
// reading as the fit check: the summary cap's restore allowance is only a planning figure, and a
// restoration sized by fixed bounds alone took a candidate with a full summary over the limit, which
// stopped the session. The core sends the room as `restore_room`; a module that adds past it is named.
import type { BudgetResult } from "../contract/compaction.ts";
import { calibrationFactor } from "./budget-call.ts";
import { CompactionError } from "./errors.ts";

/**
 * Estimator tokens a candidate may grow by from `draft` and still pass the fit check: the hard limit (in
 * real tokens) scaled back to the estimator as the check scales the candidate up, less the draft.
 */
export function restoreRoom(baseline: BudgetResult, draft: BudgetResult): number {
  const factor = calibrationFactor(baseline);
  let limit = Math.floor(draft.hard_limit / factor);
  // The check rounds the scaled figure up: step back past a float product that lands just over.
  while (limit > 0 && Math.ceil(limit * factor) > draft.hard_limit) limit--;
  return Math.max(0, limit - draft.estimates.total);
}

/** The fit check, its failure naming what the commit added past its room (a module that ignored it). */
export function withRoomNamed(check: () => number, added: number, room: number): number {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof CompactionError) || added <= room) throw err;
    throw new CompactionError(
      "validate",
      `${err.detail}; before_compact_commit added about ${added} tokens to the draft, over the ${room} it had room for (restore_room)`,
    );
  }
}
