// The worker protocol: NDJSON over stdio, one JSON object per line.
import { z } from "zod";
import { Content } from "./history.ts";

export const PROTOCOL_VERSION = 1;
/** Largest line either side may send, newline excluded. A longer line evicts the worker. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Per-request deadline. Tests inject a shorter one; this default is part of the contract. */
export const DEFAULT_DEADLINE_MS = 15_000;

export const HOOK_EVENTS = [
  "system_prompt",
  "steer",
  "budget",
  "compact_plan",
  "before_compact",
  "after_compact",
  "before_compact_commit",
  "before_request",
  "wire_request",
  "wire_response",
  "checkpoint",
] as const;
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

const Data = z.record(z.string(), z.unknown());

export const Request = z.strictObject({
  id: z.number().int().nonnegative(),
  event: z.string().min(1),
  workspace: z.string(),
  data: Data,
  /**
   * Present only when one built-in worker process serves several modules (never for a bound
   * replacement, which always runs alone): names the module the event is for.
   */
  module: z.string().optional(),
});
export type Request = z.infer<typeof Request>;

export const OkReply = z.object({ id: z.number().int().nonnegative(), data: Data });
export const ErrorReply = z.object({ id: z.number().int().nonnegative(), error: z.string() });
export const Reply = z.union([OkReply, ErrorReply]);
export type Reply = z.infer<typeof Reply>;

export const ToolDecl = z.strictObject({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
});
export type ToolDecl = z.infer<typeof ToolDecl>;

export const HelloRequestData = z.object({ protocol: z.literal(PROTOCOL_VERSION), module: z.string() });
export const HelloReplyData = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  module: z.string(),
  hooks: z.array(z.string()),
  tools: z.array(ToolDecl),
});
export type HelloReplyData = z.infer<typeof HelloReplyData>;

/** `data` of a `tool` event, and the `result` the reply adds. */
export const ToolEventData = z.object({ name: z.string(), arguments: z.unknown(), call_id: z.string() });
export const ToolResult = z.object({
  content: Content,
  is_error: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResult>;
