// `compact_plan`: decide whether to compact now and where to cut. The cut keeps at least keep_recent
// messages and walks back to the nearest turn boundary, so a tool batch is never split and no tool
// result is orphaned from the call that asked for it.
import type { History } from "../../src/contract/history.ts";
import type { HookReply, HookRequest } from "../../src/contract/hooks.ts";
import { latestCut } from "../../src/lib/tool-batches.ts";
import { type CompactPolicy, imagesPolicy } from "./policy.ts";
import { planPrune } from "./prune.ts";

/** The opaque state handed from planning to preparation (the core stores and returns it untouched). */
export interface PlanState {
  by: "i-compact";
  version: 1;
  keep_recent: number;
  images: "keep" | "omit" | "describe";
  /** "prune": before_compact shortens old tool outputs instead of preparing a summary */
  route: "summary" | "prune";
}

type PlanData = HookRequest<"compact_plan">;

function decline(data: PlanData, reason: string): HookReply<"compact_plan"> {
  return { ...data, cut: null, state: null, decline_reason: reason };
}

export function plan(data: PlanData, policy: CompactPolicy): HookReply<"compact_plan"> {
  if (!policy.enabled) return decline(data, `compaction is disabled in ${policy.file} (enabled: false)`);
  const budget = data.budget as { recommendation?: unknown } | undefined;
  const rec = budget?.recommendation;
  if (data.force !== true && rec !== "compact" && rec !== "over") {
    return decline(data, "the budget does not recommend compaction");
  }
  const history = data.history;
  if (!Array.isArray(history)) throw new Error("compact_plan: data.history is not an array");
  const base = {
    by: "i-compact",
    version: 1,
    keep_recent: policy.keepRecent,
    images: imagesPolicy(policy, data.model),
  } as const;
  // Prune first, for automatic compactions: /compact and overflow recovery ask for the full summary.
  if (policy.prune.enabled && data.reason === "auto") {
    const pruneCut = planPrune(data, history as History, policy.prune.keepRecent);
    if (pruneCut !== undefined) {
      const state: PlanState = { ...base, route: "prune" };
      return { ...data, cut: pruneCut, state };
    }
  }
  const cut = latestCut(history as History, policy.keepRecent);
  if (cut === undefined) {
    return decline(
      data,
      `no turn boundary leaves the ${policy.keepRecent} most recent messages (compact.json keep_recent) and something older to summarise`,
    );
  }
  const state: PlanState = { ...base, route: "summary" };
  return { ...data, cut, state };
}
