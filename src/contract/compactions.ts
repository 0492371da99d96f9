// What `i sessions --compactions ID --json` prints and `/compactions` shows: every compaction of a session
// with what it kept, summarised or dropped, and restored, read back from the session's log, and every
// uncompaction (or undoing of one). Message ranges are counts of the histories on either side.
import { z } from "zod";
import { CompactionReason, CompactionRoute } from "./events.ts";
import { Message } from "./history.ts";

const Count = z.number().int().nonnegative();

export const CompactionReport = z.lazy(() =>
  z.strictObject({
    /** 1-based, in commit order: what `/uncompact N` takes */
    number: z.number().int().positive(),
    ts: z.string(),
    reason: CompactionReason.optional(),
    route: CompactionRoute.optional(),
    /** messages of the history before and after it (the system message included) */
    messages_before: Count,
    messages_after: Count,
    /** messages it kept unchanged (the protected suffix and the system message) */
    kept: Count,
    /** comparable estimates before and after, as the record logged them */
    tokens_before: Count.optional(),
    tokens_after: Count.optional(),
    /** the summary text the model or compactor wrote (absent on the prune route) */
    summary: z.string().optional(),
    /** messages of the history before that the history after no longer holds as they were */
    dropped: z.array(Message),
    /** messages the history after holds that were not in it before, the summary aside (pruned, restored) */
    added: z.array(Message),
  }),
);
export type CompactionReport = z.infer<typeof CompactionReport>;

export const RestoreReport = z.lazy(() =>
  z.strictObject({
    ts: z.string(),
    /** uncompact: compaction N undone; recompact: the uncompaction of N undone */
    action: z.enum(["uncompact", "recompact"]),
    compaction: z.number().int().positive(),
    messages_before: Count,
    messages_after: Count,
  }),
);
export type RestoreReport = z.infer<typeof RestoreReport>;

export const CompactionsReport = z.lazy(() =>
  z.strictObject({
    session: z.string(),
    compactions: z.array(CompactionReport),
    restores: z.array(RestoreReport),
  }),
);
export type CompactionsReport = z.infer<typeof CompactionsReport>;
