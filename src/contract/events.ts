// Everything the agent reports while it runs. The console renders these; `i -p --json` streams them as
// NDJSON, one object per line (schemas/events.json is generated from this file).
import { z } from "zod";
import { Message } from "./history.ts";
import { Usage } from "./usage.ts";

export const CompactionReason = z.enum(["auto", "manual", "overflow"]);
export type CompactionReason = z.infer<typeof CompactionReason>;

export const CompactionRoute = z.enum(["model", "local", "prune"]);
/** The stage a running compaction is in, for progress displays. */
export const CompactionStage = z.enum(["planning", "summarising", "validating", "committing"]);
export type CompactionStage = z.infer<typeof CompactionStage>;
const Count = z.number().int().nonnegative();

/** One line of a unified diff: kept (" "), removed ("-") or added ("+"), with its 1-based line numbers. */
export const DiffLine = z.lazy(() =>
  z.strictObject({
    op: z.enum([" ", "-", "+"]),
    text: z.string(),
    /** line number in the old file (" " and "-") */
    old: Count.optional(),
    /** line number in the new file (" " and "+") */
    new: Count.optional(),
  }),
);
export type DiffLine = z.infer<typeof DiffLine>;

export const RunStopReason = z.enum(["end", "length", "max_turns", "cancelled", "blocked", "error"]);
export type RunStopReason = z.infer<typeof RunStopReason>;

/**
 * The totals print mode adds to `done` and `error`: usage sums every request of the run (sub-agent
 * tasks included; cache_read_tokens is the cached part of input_tokens); cost_usd prices each request
 * by the model that served it and is absent when any of them had no known price.
 */
const RunTotals = {
  session_id: z.string().optional(),
  /** model requests made */
  turns: Count.optional(),
  usage: Usage.optional(),
  /** why the run ended: end, length (output limit), max_turns, cancelled, blocked (a hook), error */
  stop_reason: RunStopReason.optional(),
  cost_usd: z.number().nonnegative().optional(),
  duration_ms: Count.optional(),
};

export const AgentEvent = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("session"),
      id: z.string(),
      resumed: z.boolean(),
      workspace: z.string(),
    }),
    z.strictObject({ type: z.literal("turn_start"), turn: Count }),
    z.strictObject({ type: z.literal("text_delta"), text: z.string() }),
    /** the model's reasoning as it streams (shown dimmed; never part of the answer's text) */
    z.strictObject({ type: z.literal("reasoning_delta"), text: z.string() }),
    z.strictObject({ type: z.literal("assistant"), message: Message }),
    z.strictObject({ type: z.literal("tool_call"), id: z.string(), name: z.string(), arguments: z.string() }),
    /** output of a running command as it arrives (raw: a display sanitises it) */
    z.strictObject({ type: z.literal("tool_output"), id: z.string(), text: z.string() }),
    /** what a file tool changed, as bounded unified-diff hunks (display only, not sent to the model) */
    z.strictObject({
      type: z.literal("tool_diff"),
      id: z.string(),
      path: z.string(),
      added: Count,
      removed: Count,
      hunks: z.array(z.array(DiffLine)),
      /** diff lines left out of hunks to keep the event bounded */
      omitted: Count,
    }),
    /** what a change did to the diagnostics of the files a language server sees (the lsp module) */
    z.strictObject({
      type: z.literal("diagnostics"),
      id: z.string(),
      files: z.array(z.strictObject({ path: z.string(), errors: Count, warnings: Count })),
    }),
    z.strictObject({
      type: z.literal("tool_result"),
      id: z.string(),
      name: z.string(),
      is_error: z.boolean(),
      content: z.string(),
      duration_ms: Count,
      /** bash: the command's exit code (null when a signal killed it) */
      exit_code: z.number().int().nullable().optional(),
    }),
    z.strictObject({
      type: z.literal("budget"),
      total: Count,
      hard_limit: Count,
      context_window: Count,
      ratio: z.number().nonnegative(),
      recommendation: z.enum(["none", "compact", "over"]),
    }),
    z.strictObject({
      type: z.literal("compaction"),
      phase: z.enum(["start", "done", "failed", "skipped"]),
      reason: CompactionReason,
      cut: Count.optional(),
      before_tokens: Count.optional(),
      after_tokens: Count.optional(),
      route: CompactionRoute.optional(),
      /** done, model or local route: how many messages the summary replaced (history[1..cut]) */
      summarised: Count.optional(),
      error: z.string().optional(),
    }),
    z.strictObject({ type: z.literal("compaction_step"), reason: CompactionReason, step: CompactionStage }),
    z.strictObject({
      type: z.literal("retry"),
      attempt: Count,
      delay_ms: Count,
      reason: z.string(),
      /** text the failed attempt had streamed is discarded: the reply starts over */
      discarded: z.boolean().optional(),
    }),
    z.strictObject({ type: z.literal("notice"), level: z.enum(["info", "warn"]), message: z.string() }),
    /** a `task` call's child session: started, what it runs now, finished */
    z.strictObject({
      type: z.literal("task"),
      /** the tool call's id */
      id: z.string(),
      phase: z.enum(["start", "progress", "end"]),
      agent: z.string(),
      description: z.string(),
      /** the child's own session (listed under this one) */
      session_id: z.string().optional(),
      /** the tool the child runs now */
      tool: z.string().optional(),
      is_error: z.boolean().optional(),
      usage: Usage.optional(),
      duration_ms: Count.optional(),
    }),
    /** one of the user's hooks blocked something or failed (a warning: the work went on) */
    z.strictObject({
      type: z.literal("hook"),
      /** the hooks.json event: PreToolUse, Stop… */
      event: z.string(),
      /** the hook: its event, matcher and command */
      hook: z.string(),
      outcome: z.enum(["block", "warning"]),
      message: z.string(),
    }),
    /** `i -p --json` adds the run's totals (RunTotals), so a harness needs nothing else */
    z.strictObject({ type: z.literal("error"), kind: z.string(), message: z.string(), ...RunTotals }),
    z.strictObject({ ...RunTotals, type: z.literal("done"), text: z.string(), turns: Count, usage: Usage }),
  ]),
);
export type AgentEvent = z.infer<typeof AgentEvent>;

export type EmitEvent = (ev: AgentEvent) => void;
