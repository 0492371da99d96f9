// The files of a session directory, as zod schemas: meta.json and the lines of events.jsonl.
import { z } from "zod";
import { CompactionRecord } from "./compaction.ts";
import { History, Message } from "./history.ts";

export const SessionMeta = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    /** absolute, real path of the workspace the session belongs to */
    workspace: z.string().min(1),
    /** ISO 8601 timestamps */
    created: z.string(),
    updated: z.string(),
    provider: z.string().optional(),
    model: z.string().optional(),
    /**
     * the model endpoint the session was started with (or last switched to with /model), so a resumed
     * session reaches the same server; never
     * with a user name or password (such a base URL is refused before it could be recorded)
     */
    base_url: z.string().optional(),
    /** a child task's session: the parent session and the task call it ran for */
    parent: z.object({ session_id: z.string(), call_id: z.string(), agent: z.string() }).optional(),
    /** the first line of the first user message */
    title: z.string().optional(),
    /** messages in the current checkpoint */
    messages: z.number().int().nonnegative(),
    compactions: z.number().int().nonnegative(),
    /**
     * Tokens of every model request of the session, compacted ones included (the history alone forgets
     * those), and their cost, each request priced by the model that served it, when its price was known.
     */
    usage: z
      .object({
        input_tokens: z.number().int().nonnegative(),
        output_tokens: z.number().int().nonnegative(),
        cost_usd: z.number().nonnegative().optional(),
      })
      .optional(),
    /**
     * The automatic-compaction state, so a resumed session keeps it: whether the budget trigger is armed
     * (high-watermark hysteresis) and how many automatic compactions failed in a row (the circuit breaker).
     */
    compaction: z
      .object({
        armed: z.boolean(),
        failures: z.number().int().nonnegative(),
        /** which compactor the failures were counted against (a fingerprint of its modules and config) */
        compactor: z.string().optional(),
      })
      .optional(),
    /**
     * history.json as the session last wrote it, and the size events.jsonl had then. history.json is
     * rewritten only now and then (events.jsonl is the record); while the file is still exactly this one
     * (inode, size, mtime), it holds the history the log had reached at `log_size`, and opening the session
     * replays only the log after that point. A file that differs was written by someone else (an edit).
     */
    history_file: z
      .object({
        ino: z.number().nonnegative(),
        size: z.number().int().nonnegative(),
        mtime_ms: z.number(),
        log_size: z.number().int().nonnegative(),
      })
      .optional(),
    /**
     * events.jsonl's size when this file was written. meta.json is refreshed only now and then (the log is
     * the record): the log after this point holds checkpoints (and compactions) it does not count yet, which
     * a listing reads from there to show the session's real message count and last update. Absent in
     * older files, which were written at every checkpoint.
     */
    log_size: z.number().int().nonnegative().optional(),
  }),
);
export type CompactionState = NonNullable<SessionMeta["compaction"]>;
export type SessionMeta = z.infer<typeof SessionMeta>;

/** Every line of events.jsonl: a timestamp, a type, and the type's fields. */
export const EventLine = z.looseObject({ ts: z.string(), type: z.string().min(1) });
export type EventLine = z.infer<typeof EventLine>;

/** The session was created (first line of every events.jsonl). */
export const SessionStartEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("session"),
    id: z.string().min(1),
    workspace: z.string().min(1),
    provider: z.string().optional(),
    model: z.string().optional(),
    base_url: z.string().optional(),
  }),
);

/** The user switched the model (`/model`): a session rebuilt from the log resumes with the last one. */
export const ModelEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("model"),
    model: z.string().min(1),
    provider: z.string().optional(),
    /** the endpoint in use from here on; absent in older logs (then the previous one still holds) */
    base_url: z.string().optional(),
  }),
);

/**
 * One model request's tokens (and cost, when its model's price was known): meta.json's `usage` is the
 * sum of these, and is refreshed only now and then, so the log after it is counted on opening.
 */
export const UsageEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("usage"),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cost_usd: z.number().nonnegative().optional(),
  }),
);

/** The user named the session (`/rename`): a session rebuilt from the log keeps that title. */
export const TitleEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("title"),
    title: z.string().min(1),
  }),
);

/** history[index] became `message`; anything after it was dropped (replay: length = index, then push). */
export const MessageEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("message"),
    index: z.number().int().nonnegative(),
    message: Message,
  }),
);

/** The history was cut back to `length` messages without new ones (rare: e.g. a retried reply). */
export const TruncateEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("truncate"),
    length: z.number().int().nonnegative(),
  }),
);

/** A compaction was committed: `history` is the checkpoint it produced; `record` describes it. */
export const CompactionEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("compaction"),
    messages_before: z.number().int().nonnegative(),
    /** partial on reading: replay needs only `history`, so a record missing a field never hides a checkpoint */
    record: CompactionRecord.unwrap().partial(),
    history: History,
  }),
);

/**
 * One piece of a compacted history written by reference: messages `[from, to)` of the history the log
 * held just before the event, or one message in full (a summary, a pruned or shortened message).
 */
export const CompactionPiece = z.lazy(() =>
  z.union([
    z.strictObject({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }),
    z.strictObject({ message: Message }),
  ]),
);
export type CompactionPiece = z.infer<typeof CompactionPiece>;

/**
 * A compaction written by reference: the new history is its pieces, in order, resolved against the
 * history the log held just before it, which must have `messages_before` messages. Almost every message
 * of a compacted history is already in the log (the kept suffix); writing only the new ones keeps the log
 * growing with the session's new messages, not with its history at every compaction. Not a whole-state
 * event: replay reaches it from the last `base` or whole `compaction` before it, which the session writes
 * again once the bytes logged since one exceed a multiple of the history's size. `pieces` is the first
 * field after `type`, so a reader scanning the log backwards for whole-state lines tells them apart from
 * the line's first bytes.
 */
export const CompactionDeltaEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("compaction"),
    pieces: z.array(CompactionPiece),
    messages_before: z.number().int().nonnegative(),
    record: CompactionRecord.unwrap().partial(),
  }),
);
export type CompactionDeltaEvent = z.infer<typeof CompactionDeltaEvent>;

/** A compaction event line of either form: by reference (`pieces`) or whole (`history`, every older log). */
export const AnyCompactionEvent = z.union([CompactionDeltaEvent, CompactionEvent]);

/** What a restoring base event did: which compaction it undid, or whose undoing it undid. */
export const RestoreTag = z.lazy(() =>
  z.strictObject({
    kind: z.enum(["uncompact", "recompact"]),
    compaction: z.number().int().positive(),
  }),
);
export type RestoreTag = z.infer<typeof RestoreTag>;

/**
 * The full checkpoint a reopened session continues from, logged before its first new messages. It makes
 * replay exact even when the log and history.json parted ways in a crash (e.g. between writing
 * history.json and the compaction event).
 */
export const BaseEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("base"),
    history: History,
    /**
     * Set when the base is an uncompaction (`/uncompact`: the history before compaction N, with what was
     * added since) or the undoing of one (`recompact`: the compacted history back, with what was added since).
     */
    restore: RestoreTag.optional(),
  }),
);

/** Event types the session writes itself; appendEvent refuses them so replay stays meaningful. */
export const RESERVED_EVENT_TYPES: readonly string[] = [
  "session",
  "base",
  "message",
  "truncate",
  "compaction",
  "recovered",
  "model",
  "usage",
];
