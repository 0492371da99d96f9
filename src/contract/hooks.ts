// Every event of the worker protocol with the data the core sends and the data a module must answer with.
// Hook data flows through a pipeline of modules and each hands back what it received, so every object is
// loose: fields a schema does not name pass through. Replies are checked once, by the host, against
// HOOKS[event].reply; arrays of messages that the core validates by hand (cheaper on megabytes of history)
// are `unknown[]` in reply schemas.
import { z } from "zod";
import {
  AfterCompactReply,
  BudgetInput,
  BudgetModel,
  BudgetOutput,
  BudgetPolicy,
  BudgetResult,
  CommitReply,
  LocalRouteReply,
  ModelRouteReply,
  PlanReply,
} from "./compaction.ts";
import { CompactionReason } from "./events.ts";
import { History, ImagePart, Message, ToolCall } from "./history.ts";
import { FilesChangedData, FilesChangedReply } from "./lsp.ts";
import {
  HelloReplyData,
  HelloRequestData,
  HistorySummary,
  type HookEvent,
  ToolDecl,
  ToolEventData,
  ToolResult,
} from "./protocol.ts";
import { SteerData, SteerReply } from "./steering.ts";
import { StopReason, Usage } from "./usage.ts";
import {
  NotificationData,
  PostToolUseData,
  PreCompactData,
  PreToolUseData,
  SessionStartData,
  StopData,
  UserHookReply,
  UserPromptSubmitData,
} from "./user-hooks.ts";

const JsonObject = z.record(z.string(), z.unknown());
const Count = z.number().int().nonnegative();

/** `system_prompt`: the prompt so far; each module appends its section to `system`. */
export const SystemPromptData = z.lazy(() =>
  z.looseObject({
    system: z.string(),
    workspace: z.string().optional(),
    model: z.string().optional(),
    provider: z.string().optional(),
    /** names of every tool offered to the model */
    tools: z.array(z.string()).optional(),
  }),
);
export const SystemPromptReply = z.lazy(() =>
  z.looseObject({
    system: z.string().refine((s) => s.trim() !== "", "must be a nonempty string"),
  }),
);

/**
 * `before_request`: the request the core is about to send. Modules may add provider hints under `hints`
 * (e.g. `cache_breakpoints`: history indexes to mark for prompt caching); every other field comes back
 * unchanged.
 */
export const BeforeRequestData = z.lazy(() =>
  z.looseObject({
    /** wire format: openai | anthropic | responses */
    provider: z.string(),
    model: z.string().optional(),
    /**
     * the history about to be sent (absent when the module declared a summary: then `history_summary`);
     * only roles matter to hint providers, so the rest is not re-validated
     */
    messages: z.array(z.looseObject({ role: z.string() })).optional(),
    history_summary: HistorySummary.optional(),
    hints: JsonObject.optional(),
  }),
);
export type BeforeRequestData = z.infer<typeof BeforeRequestData>;
export const BeforeRequestReply = z.looseObject({ hints: JsonObject.optional() });

/** `wire_request`: the request the core is about to send; the module fills in the JSON `body`. */
export const WireRequestData = z.lazy(() =>
  z.looseObject({
    model: z.string().min(1),
    messages: History,
    tools: z.array(ToolDecl),
    max_output_tokens: z.number().int().positive().optional(),
    hints: JsonObject.optional(),
    /** null from the core; an object when an earlier module in the pipeline started the body */
    body: JsonObject.nullish(),
  }),
);
export type WireRequestData = z.infer<typeof WireRequestData>;
export const WireRequestReply = z.looseObject({ body: JsonObject });

/** `wire_response`: the final response object of one model reply, to turn into the assistant message. */
export const WireResponseData = z.lazy(() =>
  z.looseObject({ model: z.string().optional(), response: JsonObject }),
);
/** Tool-call ids and names may be empty: the core mints ids and answers a nameless call as an unknown tool. */
const WireToolCall = z.lazy(() => ToolCall.unwrap().extend({ id: z.string(), name: z.string() }));
export const WireResponseReply = z.lazy(() =>
  z.looseObject({
    message: Message.unwrap().extend({
      role: z.literal("assistant"),
      tool_calls: z.array(WireToolCall).optional(),
    }),
    usage: Usage.optional(),
    stop: StopReason,
  }),
);

/** `checkpoint`: a notification after the history was made durable; the reply is ignored. */
export const CheckpointData = z.lazy(() =>
  z.looseObject({
    session_id: z.string(),
    /** messages in the checkpoint */
    messages: Count,
    /** what made it: a turn step, steering, a compaction… */
    reason: z.string(),
  }),
);

/** `compact_plan`: the budget reading plus the whole history; `cut` and `state` start null. */
export const CompactPlanData = z.lazy(() =>
  z.looseObject({
    model: BudgetModel,
    policy: BudgetPolicy,
    budget: BudgetResult,
    history: History,
    cut: z.null(),
    state: z.null(),
    force: z.boolean(),
    reason: CompactionReason,
  }),
);

/** `before_compact`: the span to summarise, history[1..cut]; the compactor answers with either route. */
export const BeforeCompactData = z.lazy(() =>
  z.looseObject({
    messages: z.array(Message),
    cut: Count,
    state: z.unknown(),
    model: BudgetModel,
    policy: BudgetPolicy,
    workspace: z.string(),
    reason: CompactionReason,
    /**
     * The most tokens (as the core's estimator counts text) this compaction's summary may have: the room
     * the window affords next to what the candidate keeps. A longer model summary has its oldest part
     * condensed (once); a longer local summary is rejected.
     */
    summary_cap: Count.optional(),
    /** the user's own words for this summary (`/compact <instructions>`) */
    instructions: z.string().optional(),
  }),
);
/**
 * One module's `before_compact` reply. Modules run as a pipeline and an early one may answer with neither
 * route yet (e.g. a prompt only), so each field is checked when present; the pipeline's final reply must
 * be one route (ModelRouteReply, or LocalRouteReply when it has `summary`).
 */
export const BeforeCompactReply = z.lazy(() =>
  z.looseObject({
    prompt: ModelRouteReply.unwrap().shape.prompt.optional(),
    messages: z.array(z.unknown()).optional(),
    summary: LocalRouteReply.unwrap().shape.summary.optional(),
    summary_images: z.array(ImagePart).optional(),
    retained_images: z.array(ImagePart).optional(),
  }),
);

export const AfterCompactData = z.looseObject({ summary: z.string(), state: z.unknown() });

export const BeforeCompactCommitData = z.lazy(() =>
  z.looseObject({
    candidate: History,
    summary: z.string(),
    cut: Count,
    state: z.unknown(),
    workspace: z.string(),
    /**
     * Estimator tokens the commit may still add (restored messages, file snapshots, notes) with the
     * candidate inside the hard limit, counted as the core's fit check counts them. A module that adds to
     * the candidate stays within it and passes on what is left; absent from a core that predates it.
     */
    restore_room: Count.optional(),
  }),
);

/** A tool reply: the request data with the `result` added. */
export const ToolReplyData = z.looseObject({ result: ToolResult });

/** One event of the worker protocol: its data both ways, and when in a session it can run. */
interface HookSpec {
  request: z.ZodType;
  reply: z.ZodType;
  /**
   * false for a hook that only ever follows a tool call, so never precedes a session's first model
   * request: a child task's head start leaves a module with only such hooks to start when first asked.
   */
  beforeFirstRequest?: false;
}

/** Every event a worker may receive: the data the core sends and what the reply's data must be. */
export const HOOKS = {
  hello: { request: HelloRequestData, reply: HelloReplyData },
  tool: { request: ToolEventData, reply: ToolReplyData },
  system_prompt: { request: SystemPromptData, reply: SystemPromptReply },
  steer: { request: SteerData, reply: SteerReply },
  budget: { request: BudgetInput, reply: BudgetOutput },
  compact_plan: { request: CompactPlanData, reply: PlanReply },
  before_compact: { request: BeforeCompactData, reply: BeforeCompactReply },
  after_compact: { request: AfterCompactData, reply: AfterCompactReply },
  before_compact_commit: { request: BeforeCompactCommitData, reply: CommitReply },
  before_request: { request: BeforeRequestData, reply: BeforeRequestReply },
  wire_request: { request: WireRequestData, reply: WireRequestReply },
  wire_response: { request: WireResponseData, reply: WireResponseReply },
  checkpoint: { request: CheckpointData, reply: JsonObject },
  files_changed: { request: FilesChangedData, reply: FilesChangedReply, beforeFirstRequest: false },
  session_start: { request: SessionStartData, reply: UserHookReply },
  user_prompt_submit: { request: UserPromptSubmitData, reply: UserHookReply },
  pre_tool_use: { request: PreToolUseData, reply: UserHookReply },
  post_tool_use: { request: PostToolUseData, reply: UserHookReply },
  pre_compact: { request: PreCompactData, reply: UserHookReply },
  stop: { request: StopData, reply: UserHookReply },
  subagent_stop: { request: StopData, reply: UserHookReply },
  notification: { request: NotificationData, reply: UserHookReply },
} as const satisfies Record<HookEvent | "hello" | "tool", HookSpec>;

export type ProtocolEvent = keyof typeof HOOKS;

/** Whether `event` may run before a session's first model request (a name the table lacks may). */
export function mayPrecedeFirstRequest(event: string): boolean {
  const spec: HookSpec | undefined = Object.hasOwn(HOOKS, event) ? HOOKS[event as ProtocolEvent] : undefined;
  return spec?.beforeFirstRequest !== false;
}
/** What a module receives for `event`. */
export type HookRequest<E extends ProtocolEvent> = z.infer<(typeof HOOKS)[E]["request"]>;
/** What a module must answer for `event` (after the host's check). */
export type HookReply<E extends ProtocolEvent> = z.infer<(typeof HOOKS)[E]["reply"]>;

/** The two final shapes of the `before_compact` pipeline (model-assisted and local summary). */
export { LocalRouteReply, ModelRouteReply };
