// The history summary sent to modules that declared they need no more (HistorySummary in protocol.ts):
// roles, estimated tokens and image parts per message, and the last message. A module that only counts
// (the built-in budget) or only looks at roles (the built-in cache) then gets a few bytes per message
// instead of the whole history, and sends none of it back, on every model request.
//
// Each message's tally is computed once: messages are never mutated once in a history, so the tally is
// kept beside the message, weakly (a message that leaves every history takes its tally with it).
import { ESTIMATOR, type MessageTally, tallyMessage } from "../contract/lib/estimator.ts";
import type { HistorySummary } from "../contract/protocol.ts";

const tallies = new WeakMap<object, MessageTally>();

function tallyOf(m: unknown): MessageTally {
  const cached = typeof m === "object" && m !== null ? tallies.get(m) : undefined;
  if (cached) return cached;
  const t: MessageTally = { text: 0, images: 0 };
  tallyMessage(m, t);
  if (typeof m === "object" && m !== null) tallies.set(m, t);
  return t;
}

export function summarizeHistory(history: readonly unknown[]): HistorySummary {
  const n = history.length;
  const roles = new Array<string>(n);
  const tokens = new Array<number>(n);
  const images = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const m = history[i];
    const role = (m as { role?: unknown } | null)?.role;
    roles[i] = typeof role === "string" ? role : "";
    const t = tallyOf(m);
    tokens[i] = t.text;
    images[i] = t.images;
  }
  const summary: HistorySummary = { count: n, roles, tokens, images, estimator: { ...ESTIMATOR } };
  const last = history[n - 1];
  if (last && typeof last === "object") summary.last = last as HistorySummary["last"] & object;
  return summary;
}
