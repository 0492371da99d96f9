// The model-free first stage. Old tool outputs are the bulk of a long session and the cheapest part to
// give up: each is shortened to exactly the head and tail a summariser would be shown of it
// (shortenToolOutput), so pruning loses nothing a later summary would have kept, and the whole output
// stays in events.jsonl. The plan takes the prune route, and no summary request is made, when pruning
// alone brings the context below the budget's re-arm ratio (the trigger re-arms), or when a summary would
// buy no more turns before the next compaction than pruning does. Turns are counted as large as the
// latest one, in the room left until the next compaction: below the re-arm ratio the trigger is next,
// above it the trigger stays disarmed until the hard limit. A summary leaves at best the previous summary,
// the user messages it restored and what the cut keeps. Without this a long session whose summary has
// grown summarises on nearly every turn, each time buying nothing a pruning would not have. Otherwise the
// full summary runs. The recent window (prune.keep_recent messages, whole tool batches) is never touched,
// nor is anything but tool output.
import type { History, Message } from "../../src/contract/history.ts";
import { estimateRequest } from "../../src/lib/estimator.ts";
import { latestCut } from "../../src/lib/tool-batches.ts";
import type { Data } from "../sdk/module.ts";
import { shortenToolOutput, TOOL_OUTPUT_MAX_BYTES } from "./prepare.ts";

/** Tokens of a shortened output (its head, tail and the note), as the estimator counts text. */
const SHORTENED_TOKENS = Math.ceil((TOOL_OUTPUT_MAX_BYTES + 160) / 4);

interface BudgetView {
  estimates?: { total?: unknown; tools?: unknown };
  effective_total?: unknown;
  hard_limit?: unknown;
  calibration_factor?: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Whether a tool message is long enough to shorten (string content or text parts only). */
function prunable(m: Message): boolean {
  if (m.role !== "tool") return false;
  if (typeof m.content === "string") return m.content.length * 3 > TOOL_OUTPUT_MAX_BYTES;
  return false;
}

/** Tokens the prune stage would free in history[1..cut], by the estimator's ASCII rate (4 chars a token). */
export function pruneSavings(history: History, cut: number): number {
  let saved = 0;
  for (let i = 1; i < cut; i++) {
    const m = history[i] as Message;
    if (!prunable(m)) continue;
    const tokens = (m.content as string).length / 4;
    if (tokens > SHORTENED_TOKENS) saved += tokens - SHORTENED_TOKENS;
  }
  return saved;
}

/**
 * Tokens a summary compaction at `cut` leaves at the least: the system message, the tools, the previous
 * summary and restored user messages (a new summary restates them) and the recent suffix.
 */
export function summaryFloor(history: History, cut: number, toolTokens: number): number {
  const kept: Message[] = [history[0] as Message];
  for (let i = 1; i < cut; i++) {
    const m = history[i] as Message;
    if (m.meta?.summary === true || m.meta?.restored === true) kept.push(m);
  }
  for (let i = cut; i < history.length; i++) kept.push(history[i] as Message);
  return estimateRequest(kept, undefined, [], undefined).total + toolTokens;
}

/** Tokens the latest turn added: the last user or assistant message and the tool results after it. */
export function latestTurnTokens(history: History): number {
  let start = history.length - 1;
  while (start > 1 && history[start]?.role === "tool") start--;
  const system = [history[0]];
  return (
    estimateRequest([...system, ...history.slice(start)], undefined, [], undefined).total -
    estimateRequest(system, undefined, [], undefined).total
  );
}

/**
 * Turns as large as `turn` that fit before the next compaction when one leaves the context at `level`
 * (both shares of the hard limit).
 */
function turnsBefore(level: number, turn: number, rearm: number, trigger: number): number {
  const room = (level < rearm ? trigger : 1) - level;
  return turn > 0 ? Math.floor(room / turn) : room;
}

/**
 * The cut of the prune route when pruning does what a summary would, else undefined. Contexts are
 * estimated with the budget's own calibration and compared with its re-arm and trigger ratios.
 */
export function planPrune(data: Data, history: History, keepRecent: number): number | undefined {
  const budget = data.budget as BudgetView | undefined;
  const policy = data.policy as { rearm_ratio?: unknown; trigger_ratio?: unknown } | undefined;
  const total = num(budget?.estimates?.total);
  const hard = num(budget?.hard_limit);
  const rearm = num(policy?.rearm_ratio);
  if (total === undefined || hard === undefined || rearm === undefined || total <= 0) return undefined;
  const factor = num(budget?.calibration_factor) ?? (num(budget?.effective_total) ?? total) / total;
  const cut = latestCut(history, keepRecent);
  if (cut === undefined) return undefined;
  const saved = pruneSavings(history, cut);
  if (saved <= 0) return undefined;
  const after = ((total - saved) * factor) / hard;
  if (after < rearm) return cut;
  const trigger = num(policy?.trigger_ratio);
  if (trigger === undefined || after >= 1) return undefined;
  const floor = (summaryFloor(history, cut, num(budget?.estimates?.tools) ?? 0) * factor) / hard;
  const latest = (latestTurnTokens(history) * factor) / hard;
  const pruned = turnsBefore(after, latest, rearm, trigger);
  return pruned >= turnsBefore(floor, latest, rearm, trigger) ? cut : undefined;
}

/** history[1..cut] with every long tool output shortened; all other messages untouched (same objects). */
export function pruneMessages(messages: readonly Message[]): Message[] {
  return messages.map((m) => {
    if (!prunable(m)) return m;
    const short = shortenToolOutput(m.content as string);
    // Head, tail and the note can be longer than a text just over the bound: then it stays as it is.
    return short.length < (m.content as string).length ? { ...m, content: short } : m;
  });
}
