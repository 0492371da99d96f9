// The safety net's shapes: config_dir/checkpoints.json, a workspace snapshot as the checkpoint store keeps
// it, and the events.jsonl lines that record checkpoints and rewinds.
import { z } from "zod";
import { Message } from "./history.ts";

const MiB = 1024 * 1024;
export const CHECKPOINT_DEFAULTS = {
  enabled: true,
  max_file_bytes: 8 * MiB,
  max_store_bytes: 1024 * MiB,
  max_files: 50_000,
  max_ms: 5_000,
} as const;

/** config_dir/checkpoints.json: what the workspace checkpoints record, and how much disk they may take. */
export const CheckpointsFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    /** false: no checkpoints are recorded (/undo and /rewind can then only rewind the conversation) */
    enabled: z.boolean().optional(),
    /** a file larger than this is not recorded (said once per file); default 8 MiB */
    max_file_bytes: z.number().int().positive().optional(),
    /** the session's store is pruned, oldest checkpoints first, to stay under this; default 1 GiB */
    max_store_bytes: z.number().int().positive().optional(),
    /** a workspace with more files than this is recorded only up to it (said once); default 50000 */
    max_files: z.number().int().positive().optional(),
    /** one recording stops after this many milliseconds (said once); default 5000 */
    max_ms: z.number().int().positive().optional(),
  }),
);
export type CheckpointsFile = z.infer<typeof CheckpointsFile>;
export type CheckpointsPolicy = Required<Omit<CheckpointsFile, "$schema" | "$comment">>;

/** One path of a snapshot: a file (content by hash), a symbolic link (its target, never followed), or a
 * file that was not recorded (too large). `size`, `mtime` and `ino` are the stat cache: an unchanged
 * stat means an unchanged content. */
export const SnapshotEntry = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("file"),
      path: z.string().min(1),
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().nonnegative(),
      mode: z.number().int().nonnegative(),
      mtime: z.number(),
      ino: z.number().nonnegative(),
    }),
    z.strictObject({ kind: z.literal("link"), path: z.string().min(1), target: z.string() }),
    z.strictObject({
      kind: z.literal("skipped"),
      path: z.string().min(1),
      size: z.number().int().nonnegative(),
    }),
  ]),
);
export type SnapshotEntry = z.infer<typeof SnapshotEntry>;

/** A workspace state: every path git would track, sorted. `partial`: the walk stopped early (why). */
export const Snapshot = z.lazy(() =>
  z.strictObject({
    version: z.literal(1),
    /** when the walk started (ms since the epoch): a file modified after it is re-read next time */
    taken_ms: z.number(),
    partial: z.string().optional(),
    entries: z.array(SnapshotEntry),
  }),
);
export type Snapshot = z.infer<typeof Snapshot>;

/**
 * events.jsonl: the workspace was recorded. `phase` "before": before the first change of the turn whose
 * user message has timestamp `turn_ts` (the state a rewind to before that message restores); "after":
 * when that turn (or `!command`) ended, so later changes by hand can be told from the agent's.
 */
export const CheckpointEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("checkpoint"),
    phase: z.enum(["before", "after"]),
    snapshot: z.string().min(1),
    turn_ts: z.string(),
    files: z.number().int().nonnegative(),
    /** paths that differ from the turn's "before" snapshot (phase "after" only) */
    changed: z.array(z.string()).optional(),
    partial: z.boolean().optional(),
    /** when the snapshot was taken, when not at `ts` (a checkpoint a fork copied from its parent) */
    at: z.string().optional(),
  }),
);
export type CheckpointEvent = z.infer<typeof CheckpointEvent>;

/**
 * events.jsonl: an /undo, /rewind or /redo. `code_before` is the workspace just before it (what a redo
 * restores); `dropped` the messages it took from the conversation (the store blob holding them as JSON).
 */
export const RewindEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("rewind"),
    id: z.string().min(1),
    kind: z.enum(["undo", "rewind", "redo"]),
    mode: z.enum(["code", "conversation", "both"]),
    /** the rewind this redo reverses */
    reverses: z.string().optional(),
    /** the user message the rewind went back to before (its meta.ts), when it names one */
    to_ts: z.string().optional(),
    code_before: z.string().optional(),
    code_after: z.string().optional(),
    messages_before: z.number().int().nonnegative(),
    messages_after: z.number().int().nonnegative(),
    /** the conversation's length and last message timestamp before and after, "N:TS": a redo applies only
     * while the conversation is still as this rewind left it */
    tail_before: z.string(),
    tail_after: z.string(),
    dropped: z.string().optional(),
    /** the text of the user message that an undo puts back in the input box */
    draft: z.string().optional(),
  }),
);
export type RewindEvent = z.infer<typeof RewindEvent>;

/** The dropped messages a rewind keeps in the store, so a redo can put them back. */
export const DroppedMessages = z.array(Message);

/** events.jsonl (first lines of a forked session): where the fork came from. */
export const ForkEvent = z.lazy(() =>
  z.looseObject({
    ts: z.string(),
    type: z.literal("fork"),
    parent: z.string().min(1),
    /** messages of the parent's history the fork starts with */
    messages: z.number().int().nonnegative(),
  }),
);
