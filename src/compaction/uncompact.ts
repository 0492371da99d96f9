// Undoing a compaction: the history from before compaction N comes back, with every message the session
// added since, when it fits. It is the inverse the log makes possible (every message a compaction
// replaced is in events.jsonl), and it is useful when the window grew (`/model` to a larger one) or a
// summary lost something that matters. The restore is itself a logged whole-state event, so it survives
// kill -9 and can be undone in turn, which puts the compacted history back with what came after.
import type { BudgetModel, BudgetPolicy } from "../contract/compaction.ts";
import type { History } from "../contract/history.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import type { HookRunner } from "../worker/types.ts";
import { effectiveTotal, readBudget } from "./budget-call.ts";

export type RestoreKind = "uncompact" | "recompact";

/** A history rebuilt from the session's log, or why it cannot be. */
export type Rebuilt = { history: History; compaction: number } | { why: string };

/**
 * What an uncompaction needs of the session, which reads its own log (fresh each time) for it: how many
 * compactions it holds, the history before one of them or before the last uncompaction (each with what
 * was added since, checked against `current`, the history the agent holds), and the atomic restore.
 */
export interface RestoreSession {
  compactionCount(): number;
  historyBeforeCompaction(n: number, current: History): Rebuilt;
  historyBeforeUncompaction(current: History): Rebuilt;
  restoreHistory(history: History, tag: { kind: RestoreKind; compaction: number }): void;
}

export interface UncompactDeps {
  hooks: HookRunner;
  model: BudgetModel;
  policy: BudgetPolicy;
  tools: readonly ToolDecl[];
  session: RestoreSession;
}

export type RestoreOutcome =
  | { ok: true; history: History; compaction: number; messages: number; tokens: number }
  | { ok: false; why: string };

/**
 * Restore the history before compaction `n` (default: the last one) when it fits below the compaction
 * trigger of the current model; otherwise say by how many tokens it does not. `current` is the history
 * the agent holds, which must be the one the log replays to.
 */
export async function uncompact(deps: UncompactDeps, current: History, n?: number): Promise<RestoreOutcome> {
  const count = deps.session.compactionCount();
  if (count === 0) return { ok: false, why: "this session has not been compacted" };
  const target = n ?? count;
  if (!Number.isInteger(target) || target < 1 || target > count)
    return { ok: false, why: `there is no compaction ${n}: the session has ${count} (1 to ${count})` };
  const rebuilt = deps.session.historyBeforeCompaction(target, current);
  if ("why" in rebuilt) return { ok: false, why: rebuilt.why };
  const fit = await fits(deps, rebuilt.history);
  if (!fit.ok) {
    return {
      ok: false,
      why: `the history before compaction ${target} needs about ${fit.tokens} tokens, ${fit.tokens - fit.limit} more than fit below the compaction trigger of ${deps.model.name} (${fit.limit} of its ${deps.model.context_window}-token window); switch to a model with a larger window (/model) and try again`,
    };
  }
  deps.session.restoreHistory(rebuilt.history, { kind: "uncompact", compaction: target });
  return {
    ok: true,
    history: rebuilt.history,
    compaction: target,
    messages: rebuilt.history.length - current.length,
    tokens: fit.tokens,
  };
}

/**
 * Undo the last uncompaction: the compacted history it replaced comes back, with whatever the session
 * added since. Refused when the last compaction action was not an uncompaction.
 */
export function recompact(deps: Pick<UncompactDeps, "session">, current: History): RestoreOutcome {
  const rebuilt = deps.session.historyBeforeUncompaction(current);
  if ("why" in rebuilt) return { ok: false, why: rebuilt.why };
  deps.session.restoreHistory(rebuilt.history, { kind: "recompact", compaction: rebuilt.compaction });
  return {
    ok: true,
    history: rebuilt.history,
    compaction: rebuilt.compaction,
    messages: rebuilt.history.length - current.length,
    tokens: 0,
  };
}

async function fits(
  deps: UncompactDeps,
  history: History,
): Promise<{ ok: boolean; tokens: number; limit: number }> {
  const reading = await readBudget(deps.hooks, deps.model, deps.policy, {
    history,
    tools: deps.tools,
    armed: true,
  });
  const b = reading.budget;
  const tokens = effectiveTotal(b);
  const limit = Math.floor(b.hard_limit * deps.policy.trigger_ratio);
  return { ok: b.recommendation === "none" && tokens <= limit, tokens, limit };
}
