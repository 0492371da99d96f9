// The history summary sent to modules that declared they need no more (HistorySummary in protocol.ts):
// roles, estimated tokens and image parts per message, and the last message. A module that only counts
// (the built-in budget) or only looks at roles (the built-in cache) then gets a few bytes per message
// instead of the whole history, and sends none of it back, on every model request.
//
// Each message's tally is computed once: messages are never mutated once in a history, so the tally is
// kept beside the message, weakly (a message that leaves every history takes its tally with it).

import type { HistorySummary } from "../contract/protocol.ts";
import { ByteLog } from "../lib/byte-log.ts";
import { EncodedJson, isPlain, type Piece } from "../lib/encode-data.ts";
import { ESTIMATOR, type MessageTally, tallyMessage } from "../lib/estimator.ts";
import { messageJson } from "../lib/message-json.ts";
import { PrefixCache } from "../lib/prefix-cache.ts";

const tallies = new WeakMap<object, MessageTally>();

function tallyOf(m: unknown): MessageTally {
  const cached = typeof m === "object" && m !== null ? tallies.get(m) : undefined;
  if (cached) return cached;
  const t: MessageTally = { text: 0, images: 0 };
  tallyMessage(m, t);
  if (typeof m === "object" && m !== null) tallies.set(m, t);
  return t;
}

/**
 * The per-message columns, and their JSON as bytes (comma-separated elements, no brackets): a long
 * session sends them on every model request, and building their text anew each time made history-sized
 * garbage per turn. Elements are appended as the history grows; the bytes of earlier ones never change.
 */
interface Columns {
  roles: string[];
  tokens: number[];
  images: number[];
  json: { roles: ByteLog; tokens: ByteLog; images: ByteLog };
}

const push = (log: ByteLog, first: boolean, value: string | number) =>
  log.append(`${first ? "" : ","}${JSON.stringify(value)}`);

/** The summary's per-message columns, extended as the history grows (not rebuilt each request). */
const columns = new PrefixCache<Columns>(
  () => ({
    roles: [],
    tokens: [],
    images: [],
    json: { roles: new ByteLog(), tokens: new ByteLog(), images: new ByteLog() },
  }),
  (c, m) => {
    const named = (m as { role?: unknown } | null)?.role;
    const role = typeof named === "string" ? named : "";
    const t = tallyOf(m);
    const first = c.roles.length === 0;
    c.roles.push(role);
    c.tokens.push(t.text);
    c.images.push(t.images);
    push(c.json.roles, first, role);
    push(c.json.tokens, first, t.text);
    push(c.json.images, first, t.images);
  },
);

/**
 * The summary of `history`, as sent: an EncodedJson whose pieces are the columns' kept bytes (what the
 * request line is built from) and whose value, for anything that reads it, is the HistorySummary with
 * copies of the columns (they keep growing with the history). Both are taken now: the history may grow
 * after this call, the summary does not.
 */
export function summarizeHistory(history: readonly unknown[]): EncodedJson<HistorySummary> {
  const c = columns.of(history);
  const count = history.length;
  const views = { roles: c.json.roles.view(), tokens: c.json.tokens.view(), images: c.json.images.view() };
  const last = history[count - 1];
  const lastMessage =
    last && typeof last === "object" ? (last as HistorySummary["last"] & object) : undefined;
  const estimator = { ...ESTIMATOR };
  const value = (): HistorySummary => ({
    count,
    roles: c.roles.slice(0, count),
    tokens: c.tokens.slice(0, count),
    images: c.images.slice(0, count),
    estimator,
    ...(lastMessage ? { last: lastMessage } : {}),
  });
  const pieces = (): Piece[] => [
    `{"count":${count},"roles":[`,
    views.roles,
    `],"tokens":[`,
    views.tokens,
    `],"images":[`,
    views.images,
    `],"estimator":${JSON.stringify(estimator)}${lastMessage ? `,"last":${lastJson(lastMessage)}` : ""}}`,
  ];
  return new EncodedJson(pieces, value);
}

/** The last message's text: the per-message cache's for a plain message, else as JSON.stringify writes it. */
const lastJson = (m: object): string => (isPlain(m) ? messageJson(m) : JSON.stringify(m));
