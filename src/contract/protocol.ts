// The worker protocol: NDJSON over stdio, one JSON object per line.
import { z } from "zod";
import { Content } from "./history.ts";
import { RuntimeToolDecl } from "./runtime-tools.ts";
import { Usage } from "./usage.ts";
import { HookOptions } from "./user-hooks.ts";

export const PROTOCOL_VERSION = 1;
/** Largest line either side may send, newline excluded. A longer line evicts the worker. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Per-request deadline. Tests inject a shorter one; this default is part of the contract. */
export const DEFAULT_DEADLINE_MS = 15_000;

/** The events of the user's own commands (hooks.json), declared by the hooks module or any other. */
export const USER_HOOK_CONTRACT_EVENTS = [
  "session_start",
  "user_prompt_submit",
  "pre_tool_use",
  "post_tool_use",
  "pre_compact",
  "stop",
  "subagent_stop",
  "notification",
] as const;

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
  "files_changed",
  ...USER_HOOK_CONTRACT_EVENTS,
] as const;
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

const Data = z.record(z.string(), z.unknown());

export const Request = z.lazy(() =>
  z.strictObject({
    id: z.number().int().nonnegative(),
    event: z.string().min(1),
    workspace: z.string(),
    data: Data,
    /**
     * Present only when one built-in worker process serves several modules (never for a bound
     * replacement, which always runs alone): names the module the event is for.
     */
    module: z.string().optional(),
  }),
);
export type Request = z.infer<typeof Request>;

export const OkReply = z.lazy(() => z.object({ id: z.number().int().nonnegative(), data: Data }));
export const ErrorReply = z.lazy(() => z.object({ id: z.number().int().nonnegative(), error: z.string() }));
export const Reply = z.union([OkReply, ErrorReply]);

/**
 * The reply nearly every request gets, `{"id":N,"data":{…}}` and nothing else, read without the schema:
 * a worker answers every hook of every turn, and the schema's walk ran at the engine's interpreted speed
 * each time. Anything else (an error, other members, odd values) is undefined: parse it with `Reply`,
 * which accepts everything this accepts, as the same value.
 */
export function plainOkReply(msg: unknown): { id: number; data: Record<string, unknown> } | undefined {
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return undefined;
  const keys = Object.keys(msg);
  if (keys.length !== 2 || !("id" in msg) || !("data" in msg)) return undefined;
  const { id, data } = msg as { id: unknown; data: unknown };
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return undefined;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  // An own "__proto__" member (JSON.parse makes one) is left to the schema, which copies members.
  if (Object.getPrototypeOf(data) !== Object.prototype || Object.hasOwn(data, "__proto__")) return undefined;
  return { id, data: data as Record<string, unknown> };
}
/**
 * Sent by a worker, any number of times, while request `id` (a tool call) is in flight: news for the
 * user's display (e.g. what a child task is doing). It settles nothing and the core may ignore it.
 */
export const ProgressMessage = z.lazy(() =>
  z.object({
    id: z.number().int().nonnegative(),
    progress: z.record(z.string(), z.unknown()),
  }),
);
export type Reply = z.infer<typeof Reply>;

export const ToolDecl = z.lazy(() =>
  z.strictObject({
    name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/),
    description: z.string(),
    input_schema: z.record(z.string(), z.unknown()),
  }),
);
export type ToolDecl = z.infer<typeof ToolDecl>;

/**
 * What a hook receives of the history. Every hook gets the full history unless the module declares, at
 * hello, that a summary is all it needs for that event (`payloads`). Only these events carry a history that
 * may be summarised, in the named field; every other hook gets what it always gets — in particular
 * `compact_plan`, `before_compact` and `before_compact_commit` always receive the authoritative messages.
 *
 * | event            | history field | summary allowed |
 * | ---------------- | ------------- | --------------- |
 * | `budget`         | `history`     | yes             |
 * | `before_request` | `messages`    | yes             |
 * | `compact_plan`   | `history`     | no (full, authoritative) |
 * | `before_compact` | `messages` = history[1..cut] | no |
 * | `before_compact_commit` | `candidate` | no |
 * | `checkpoint`     | none: `messages` is the count | — |
 * | `system_prompt`, `steer`, `after_compact`, `wire_request`, `wire_response` | none | — |
 */
export const SUMMARISABLE: Partial<Record<HookEvent, "history" | "messages">> = {
  budget: "history",
  before_request: "messages",
};

export const PayloadForm = z.enum(["full", "summary"]);
export type PayloadForm = z.infer<typeof PayloadForm>;

/**
 * Sent instead of the history field (as `history_summary`) to a module that declared `"summary"` for the
 * event. Per message, index for index with the history: its role, its estimated tokens and its image parts
 * as the named estimator counts them (text tokens including per-message framing, fractional; images are
 * not in `tokens`). The core puts the full history back into the data the module returns, so the module
 * neither sends it back nor can change it; any `history_summary` in the reply is dropped.
 */
export const HistorySummary = z.lazy(() =>
  z.object({
    count: z.number().int().nonnegative(),
    roles: z.array(z.string()),
    tokens: z.array(z.number().nonnegative()),
    images: z.array(z.number().int().nonnegative()),
    estimator: z.object({ id: z.string(), version: z.union([z.string(), z.number()]) }),
    /** the last message, whole (undefined for an empty history) */
    last: z.looseObject({ role: z.string() }).optional(),
  }),
);
export type HistorySummary = z.infer<typeof HistorySummary>;

export const HelloRequestData = z.lazy(() =>
  z.object({ protocol: z.literal(PROTOCOL_VERSION), module: z.string() }),
);
export const HelloReplyData = z.lazy(() =>
  z.object({
    protocol: z.literal(PROTOCOL_VERSION),
    module: z.string(),
    hooks: z.array(z.string()),
    tools: z.array(ToolDecl),
    /** per declared hook, what of the history it needs (default "full"); see SUMMARISABLE */
    payloads: z.record(z.string(), PayloadForm).optional(),
    /** a module that owns a tool namespace: the tools it declares now (more may follow; see runtime-tools) */
    runtime_tools: z.array(RuntimeToolDecl).optional(),
    /** per declared hook, its own deadline and when the core may leave it out (see HookOptions) */
    hook_options: z.record(z.string(), HookOptions).optional(),
  }),
);
export type HelloReplyData = z.infer<typeof HelloReplyData>;

/** `data` of a `tool` event, and the `result` the reply adds. */
export const ToolEventData = z.lazy(() =>
  z.object({
    name: z.string(),
    arguments: z.unknown(),
    call_id: z.string(),
    /** what the core tells a tool that needs to know its session (the `task` tool: TaskContext) */
    context: z.record(z.string(), z.unknown()).optional(),
  }),
);
export const ToolResult = z.lazy(() =>
  z.object({
    content: Content,
    is_error: z.boolean(),
    /** model tokens the tool itself used (a child task's), added to the session's totals */
    usage: Usage.optional(),
  }),
);
/**
 * `tool_cancel`: the user cancelled while tool call `call_id` ran; the core has already answered it as
 * cancelled and drops any late reply. A worker stops the work (a child task's process) and answers with
 * the data; one that has nothing to stop answers it unchanged, like any event it does not handle.
 */
export const ToolCancelData = z.object({ call_id: z.string() });
export const TOOL_CANCEL_EVENT = "tool_cancel";
export type ToolResult = z.infer<typeof ToolResult>;
