// Tools declared at run time. The modules of the registry keep fixed declarations; a module whose registry
// entry owns a namespace (mcp owns `mcp__`) may also declare tools there: in its hello reply
// (`runtime_tools`) and again whenever its list changes. "Again" travels in the request/reply protocol
// as the `tools` event, which the core sends such a module before each model request (one short round
// trip); the reply is the module's whole current list. The core checks every name, refuses clashes with
// core tools and other modules' tools, and routes calls through the same tool dispatch, approvals and
// result caps as every other tool, each under the deadline its declaration gives.
import { z } from "zod";
import { RuntimeResourceDecl } from "./runtime-resources.ts";

/** Every provider accepts tool names of this shape (OpenAI's and Anthropic's rules intersected). */
export const RUNTIME_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_TOOL_NAME = 64;

/** The event that asks a module for its current runtime tools, and the one that cancels a tool call. */
export const TOOLS_EVENT = "tools";
export const CANCEL_EVENT = "cancel";

/** Longest per-call deadline a declaration may ask for (a day); the default is the module's to choose. */
export const MAX_TOOL_TIMEOUT_MS = 86_400_000;

export const RuntimeToolDecl = z.lazy(() =>
  z.strictObject({
    name: z.string().regex(RUNTIME_TOOL_NAME),
    description: z.string(),
    input_schema: z.record(z.string(), z.unknown()),
    /** what the user sees instead of the fitted name, e.g. `github · create_issue` */
    title: z.string().optional(),
    /** the tool's family (an MCP server): "always allow" may cover the whole group */
    group: z.string().min(1).optional(),
    /** "auto": the user's configuration allows it without asking (--approve none still refuses it) */
    approval: z.enum(["ask", "auto"]).optional(),
    /** this tool's own deadline per call, in ms (hooks keep theirs) */
    timeout_ms: z.number().int().positive().max(MAX_TOOL_TIMEOUT_MS).optional(),
  }),
);
export type RuntimeToolDecl = z.infer<typeof RuntimeToolDecl>;

/**
 * A prompt a module offers at run time (an MCP server's prompt): the console lists it as a slash command
 * `/NAME ARGS…`; its text, fetched with the `prompt` event, becomes the user's message.
 */
export const RuntimePromptDecl = z.lazy(() =>
  z.strictObject({
    name: z.string().regex(RUNTIME_TOOL_NAME),
    description: z.string(),
    arguments: z.array(
      z.strictObject({
        name: z.string(),
        description: z.string().optional(),
        required: z.boolean().optional(),
      }),
    ),
  }),
);
export type RuntimePromptDecl = z.infer<typeof RuntimePromptDecl>;

export const PROMPT_EVENT = "prompt";
/** `prompt`: the text of prompt `name` with these arguments (strings, by argument name). */
export const PromptRequestData = z.lazy(() =>
  z.object({ name: z.string(), arguments: z.record(z.string(), z.string()) }),
);
export const PromptReplyData = z.lazy(() => PromptRequestData.unwrap().extend({ text: z.string() }));

/**
 * `tools` request: `wait_ms` is how long the module may wait for declarations still on their way (servers
 * starting) before it answers with what it has; `revision` is the last one the core saw (0 at first).
 */
export const ToolsRequestData = z.lazy(() =>
  z.object({
    wait_ms: z.number().int().nonnegative(),
    revision: z.number().int().nonnegative(),
  }),
);
/**
 * `tools` reply: the request's data with the current list. `revision` changes whenever the list does; a
 * module whose list is still at the request's revision leaves the list out, so the usual poll (nothing
 * changed) is a few bytes each way; `notices` are one-line messages the user should see
 * once (a server that failed to start), each sent once.
 */
/** Where one group (an MCP server) stands, for `/mcp`, `i mcp list` and `i doctor`. */
export const GroupStatus = z.lazy(() =>
  z.object({
    state: z.enum(["starting", "ready", "crashed", "failed", "disabled"]),
    /** why it failed or crashed, or anything else worth a few words */
    detail: z.string().optional(),
    /** tools it offers now */
    tools: z.number().int().nonnegative(),
    /** starting it and its handshake, ms */
    start_ms: z.number().nonnegative().optional(),
    /** one round trip (a ping) after the handshake, ms */
    round_trip_ms: z.number().nonnegative().optional(),
  }),
);
export type GroupStatus = z.infer<typeof GroupStatus>;

export const ToolsReplyData = z.lazy(() =>
  ToolsRequestData.unwrap().extend({
    /** the whole current list; absent when `revision` is the one the request named (nothing changed) */
    runtime_tools: z.array(RuntimeToolDecl).optional(),
    /** the module's prompts, sent with `runtime_tools` (absent: none) */
    prompts: z.array(RuntimePromptDecl).optional(),
    /** the module's resources (for `@SERVER:URI` mentions), sent with `runtime_tools` (absent: none) */
    resources: z.array(RuntimeResourceDecl).optional(),
    notices: z.array(z.string()).optional(),
    status: z.record(z.string(), GroupStatus).optional(),
    /**
     * The module answers `tools_watch`: until it says the list changed, the core need not ask again
     * before each model request (absent: it asks every time).
     */
    watch: z.boolean().optional(),
  }),
);
export type ToolsReplyData = z.infer<typeof ToolsReplyData>;

/**
 * `tools_watch`: answered when the module's revision is no longer `revision` (its tools, prompts or
 * resources changed, or it has a notice to say), or after `wait_ms` with nothing changed. The reply is
 * the request's data with `current`, the revision now. It is how a change is pushed within the
 * request/reply protocol: the core keeps one such request open per module and skips the `tools` round
 * trip before a model request while nothing changed. A module that does not handle the event returns
 * the data unchanged (no `current`), and is asked with `tools` every time.
 */
export const TOOLS_WATCH_EVENT = "tools_watch";
export const ToolsWatchRequestData = z.lazy(() =>
  z.object({
    revision: z.number().int().nonnegative(),
    wait_ms: z.number().int().positive(),
  }),
);
export const ToolsWatchReplyData = z.lazy(() =>
  ToolsWatchRequestData.unwrap().extend({
    current: z.number().int().nonnegative().optional(),
  }),
);

/**
 * How far a call of a tool declared at run time has got, as its server said: the `progress` of the
 * `{id, progress}` lines its module sends while the `tool` request runs (the console's activity line
 * shows each new figure).
 */
export const CallProgress = z.lazy(() =>
  z.object({
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
);
export type CallProgress = z.infer<typeof CallProgress>;

/** `cancel`: the user cancelled the call `call_id` of a `tool` request in flight; the reply is the data. */
export const CancelRequestData = z.object({ call_id: z.string() });

/** 32-bit FNV-1a, hex: a stable, dependency-free fingerprint for shortened names. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * The name of a runtime tool from its parts (`["mcp", server, tool]` → `mcp__server__tool`), fitted to
 * RUNTIME_TOOL_NAME: characters outside it become `_`, and a name over 64 characters keeps its first 55
 * and adds `_` and a hash of the whole, so the same parts always give the same name and two long names
 * that share a beginning still differ. Two parts that fit to one name are a clash the core refuses.
 */
export function fitToolName(parts: readonly string[]): string {
  const raw = parts.join("__");
  const clean = raw.replace(/[^a-zA-Z0-9_-]/g, "_") || "_";
  if (clean.length <= MAX_TOOL_NAME) return clean;
  return `${clean.slice(0, MAX_TOOL_NAME - 9)}_${fnv1a(raw)}`;
}
