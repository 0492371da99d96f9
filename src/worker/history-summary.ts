// The history summary sent to modules that declared they need no more (HistorySummary in protocol.ts):
// roles, estimated tokens and image parts per message, and the last message. A module that only counts
// (the built-in budget) or only looks at roles (the built-in cache) then gets a few bytes per message
// instead of the whole history, and sends none of it back, on every model request.
//
// Each message's tally is computed once: messages are never mutated once in a history, so the tally is
// kept beside the message, weakly (a message that leaves every history takes its tally with it).
import { ESTIMATOR, type MessageTally, tallyMessage } from "../contract/lib/estimator.ts";
import { PrefixCache } from "../contract/lib/prefix-cache.ts";
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

interface Columns {
  roles: string[];
  tokens: number[];
  images: number[];
}

/** The summary's per-message columns, extended as the history grows (not rebuilt each request). */
const columns = new PrefixCache<Columns>(
  () => ({ roles: [], tokens: [], images: [] }),
  (c, m) => {
    const role = (m as { role?: unknown } | null)?.role;
    c.roles.push(typeof role === "string" ? role : "");
    const t = tallyOf(m);
    c.tokens.push(t.text);
    c.images.push(t.images);
  },
);

export function summarizeHistory(history: readonly unknown[]): HistorySummary {
  const c = columns.of(history);
  const summary: HistorySummary = {
    count: history.length,
    // Copies: the cached columns keep growing with the history.
    roles: c.roles.slice(),
    tokens: c.tokens.slice(),
    images: c.images.slice(),
    estimator: { ...ESTIMATOR },
  };
  const last = history[history.length - 1];
  if (last && typeof last === "object") summary.last = last as HistorySummary["last"] & object;
  return summary;
}
