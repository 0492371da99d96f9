// Everything the agent reports while it runs. The console renders these; `i -p --json` streams them as
// NDJSON, one object per line (schemas/events.json is generated from this file).
import { z } from "zod";
import { Message } from "./history.ts";
import { Usage } from "./usage.ts";

export const CompactionReason = z.enum(["auto", "manual", "overflow"]);
export type CompactionReason = z.infer<typeof CompactionReason>;

export const CompactionRoute = z.enum(["model", "local", "prune"]);
const Count = z.number().int().nonnegative();

export const AgentEvent = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("session"), id: z.string(), resumed: z.boolean(), workspace: z.string() }),
  z.strictObject({ type: z.literal("turn_start"), turn: Count }),
  z.strictObject({ type: z.literal("text_delta"), text: z.string() }),
  z.strictObject({ type: z.literal("assistant"), message: Message }),
  z.strictObject({ type: z.literal("tool_call"), id: z.string(), name: z.string(), arguments: z.string() }),
  z.strictObject({
    type: z.literal("tool_result"),
    id: z.string(),
    name: z.string(),
    is_error: z.boolean(),
    content: z.string(),
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
    error: z.string().optional(),
  }),
  z.strictObject({ type: z.literal("retry"), attempt: Count, delay_ms: Count, reason: z.string() }),
  z.strictObject({ type: z.literal("notice"), level: z.enum(["info", "warn"]), message: z.string() }),
  z.strictObject({ type: z.literal("error"), kind: z.string(), message: z.string() }),
  z.strictObject({ type: z.literal("done"), text: z.string(), turns: Count, usage: Usage }),
]);
export type AgentEvent = z.infer<typeof AgentEvent>;

export type EmitEvent = (ev: AgentEvent) => void;
