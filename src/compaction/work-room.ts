// The room a compaction leaves for work. Restorations sized by the hard limit alone filled the candidate
// to it, so a summary bought no turn and the next tool output started another one: in a 16k window with
// 300-line outputs, 840 summary requests in 1,500 turns. The rule: what the commit may restore also keeps the
// candidate below the compaction trigger by the latest turn, so a turn as large as the latest one fits
// before the next compaction — room = min(room to the hard limit, max(allowance, trigger line − draft −
// latest turn)). The allowance (the summary cap's restore share of the hard limit) is what restoration
// always keeps, so the user's latest request comes back even when the draft alone is past that line.
import type { BudgetPolicy, BudgetResult } from "../contract/compaction.ts";
import type { History } from "../contract/history.ts";
import { estimateRequest } from "../lib/estimator.ts";
import { calibrationFactor } from "./budget-call.ts";
import { RESTORE_ALLOWANCE_SHARE } from "./summary-cap.ts";

/** Estimator tokens the latest turn added: the last user or assistant message and the tool results after it. */
export function latestTurnTokens(history: History): number {
  let start = history.length - 1;
  while (start > 1 && history[start]?.role === "tool") start--;
  const system = [history[0]];
  return Math.ceil(
    estimateRequest([...system, ...history.slice(start)], undefined, [], undefined).total -
      estimateRequest(system, undefined, [], undefined).total,
  );
}

export interface WorkRoomInput {
  /** the comparable reading before compaction (calibration) */
  baseline: BudgetResult;
  /** the reading of the draft candidate (summary or pruned history, no restorations) */
  draft: BudgetResult;
  policy: BudgetPolicy;
  /** estimator tokens of the latest turn: the headroom kept for the next one */
  latestTurn: number;
  /** room to the hard limit (restoreRoom) */
  hardRoom: number;
}

/** Estimator tokens the commit may restore and still leave a turn's room below the trigger. */
export function workRoom(input: WorkRoomInput): number {
  const factor = calibrationFactor(input.baseline);
  const trigger = Math.floor((input.policy.trigger_ratio * input.draft.hard_limit) / factor);
  const allowance = Math.ceil((RESTORE_ALLOWANCE_SHARE * input.draft.hard_limit) / factor);
  const beforeTrigger = trigger - input.draft.estimates.total - input.latestTurn;
  return Math.max(0, Math.min(input.hardRoom, Math.max(allowance, beforeTrigger)));
}
