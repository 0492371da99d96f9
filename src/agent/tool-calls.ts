// Runs one batch of tool calls from an assistant message: core tools in-process, module tools through their
// worker. Every call gets exactly one result, in order, so the history stays valid whatever happens.
import { errorMessage } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import {
  type Content,
  contentWithImageMarkers,
  type Message,
  type Part,
  type ToolCall,
} from "../contract/history.ts";
import { capText, formatBytes } from "../contract/lib/truncate.ts";
import type { Usage } from "../contract/usage.ts";
import { runCoreTool } from "../tools/index.ts";
import { READ_MAX_IMAGE_BYTES } from "../tools/read.ts";
import type { ToolContext, ToolReport, ToolResult } from "../tools/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { runInGroups } from "./parallel-calls.ts";
import { capResultContent } from "./result-cap.ts";
import type { SessionTools } from "./session-tools.ts";
import type { UserHooks } from "./user-hooks.ts";

/** Module tool output is untrusted and unbounded: its text is capped, in total, before it enters history. */
export const MODULE_OUTPUT_MAX_CHARS = 50_000;

export interface ToolBatchDeps {
  hooks: HookRunner;
  coreNames: ReadonlySet<string>;
  ctx: ToolContext;
  emit: EmitEvent;
  /** estimated tokens one result may take (a share of the model's window); unbounded when absent */
  resultTokenCap?: number;
  /** the user's PreToolUse/PostToolUse hooks */
  userHooks?: UserHooks;
  /** the tools offered to the model: a call to any other is refused (a child agent's narrower set) */
  allowed?: ReadonlySet<string>;
  /** tools whose calls in one message may run at once, and how many at a time */
  parallel?: { names: ReadonlySet<string>; max: number };
  /** module tools that are told about their session, and hear of a cancel (the `task` tool) */
  sessionTools?: SessionTools;
  /** token use a tool reports for itself (a child task's), for the session's totals */
  onUsage?: (usage: Usage) => void;
}

/**
 * A module's result bounded as a core tool's is: the text capped (shared among its text parts), and an
 * image larger than `read` would return named in its place, since providers refuse such images and one
 * in the history would fail every later request.
 */
function boundModuleOutput(content: Content): Content {
  if (typeof content === "string") return capText(content, MODULE_OUTPUT_MAX_CHARS);
  const textParts = content.filter((p) => p.type === "text").length;
  const perPart = Math.floor(MODULE_OUTPUT_MAX_CHARS / Math.max(1, textParts));
  return content.map((p): Part => {
    if (p.type === "text") return { type: "text", text: capText(p.text, perPart) };
    const bytes = Math.floor((p.data.length * 3) / 4);
    if (bytes <= READ_MAX_IMAGE_BYTES) return p;
    return {
      type: "text",
      text: `[image ${p.media_type} of ${formatBytes(bytes)} left out: over the ${formatBytes(READ_MAX_IMAGE_BYTES)} image limit]`,
    };
  });
}

/** Resolves with `cancelled` as soon as `signal` aborts (never, without one). */
function whenAborted<T>(signal: AbortSignal | undefined, cancelled: T): Promise<T> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) return resolve(cancelled);
    signal.addEventListener("abort", () => resolve(cancelled), { once: true });
  });
}

async function runModuleTool(
  call: ToolCall,
  hooks: HookRunner,
  signal?: AbortSignal,
  session?: SessionTools,
): Promise<ToolResult> {
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch (err) {
    return { content: `invalid JSON arguments for ${call.name}: ${(err as Error).message}`, is_error: true };
  }
  const cancelled: ToolResult = {
    content: `cancelled by the user while ${call.name} ran; whatever it returns later is discarded`,
    is_error: true,
  };
  const started = performance.now();
  let opts: Awaited<ReturnType<SessionTools["optionsFor"]>>;
  try {
    // A cancel does not wait for the worker: the turn ends now, a late reply is dropped.
    opts = await session?.optionsFor(call);
    const r = await Promise.race([
      hooks.callTool(call.name, args, call.id, opts),
      whenAborted(signal, undefined),
    ]);
    if (opts) session?.finished(call, r ?? cancelled, performance.now() - started);
    // The worker is told, so it stops the work (a child task) instead of finishing it unseen.
    if (!r) hooks.cancelTool?.(call.name, call.id);
    if (!r) return cancelled;
    return { ...r, content: boundModuleOutput(r.content) };
  } catch (err) {
    const failed = signal?.aborted
      ? cancelled
      : { content: `tool ${call.name} failed: ${errorMessage(err)}`, is_error: true };
    if (opts) session?.finished(call, failed, performance.now() - started);
    return failed;
  }
}

/** One call with the user's hooks around it: a PreToolUse block answers it; PostToolUse sees the result. */
export async function runToolCall(call: ToolCall, deps: ToolBatchDeps): Promise<ToolResult> {
  const blocked = await deps.userHooks?.preToolUse(call);
  if (blocked !== undefined)
    return { content: `blocked by the user's PreToolUse hook: ${blocked}`, is_error: true };
  const result = await dispatchToolCall(call, deps);
  if (!deps.userHooks || deps.ctx.signal?.aborted) return result;
  const response = { content: contentWithImageMarkers(result.content), is_error: result.is_error };
  const feedback = await deps.userHooks.postToolUse(call, response);
  if (feedback === undefined) return result;
  const note = `[the user's PostToolUse hook says:]\n${feedback}`;
  const content: Content =
    typeof result.content === "string"
      ? `${result.content}\n\n${note}`
      : [...result.content, { type: "text", text: note }];
  return { ...result, content };
}

async function dispatchToolCall(call: ToolCall, deps: ToolBatchDeps): Promise<ToolResult> {
  if (deps.allowed && !deps.allowed.has(call.name))
    return {
      content: `tool "${call.name}" is not available to this agent; its tools: ${[...deps.allowed].join(", ")}`,
      is_error: true,
    };
  if (deps.coreNames.has(call.name)) return runCoreTool(call.name, call.arguments, deps.ctx);
  if (deps.hooks.toolDecls().some((t) => t.name === call.name))
    return runModuleTool(call, deps.hooks, deps.ctx.signal, deps.sessionTools);
  const names = [...deps.coreNames, ...deps.hooks.toolDecls().map((t) => t.name)].join(", ");
  return { content: `unknown tool "${call.name}"; available tools: ${names}`, is_error: true };
}

/** Results for every call of `calls`; after an abort the rest are answered as cancelled, never skipped. */
export function runToolBatch(calls: ToolCall[], deps: ToolBatchDeps): Promise<Message[]> {
  return runInGroups(calls, deps.parallel, (call) => runOne(call, deps));
}

async function runOne(call: ToolCall, deps: ToolBatchDeps): Promise<Message> {
  {
    let result: ToolResult;
    const started = Date.now();
    let exitCode: number | null | undefined;
    if (deps.ctx.signal?.aborted) {
      result = { content: "cancelled by the user before it ran", is_error: true };
    } else {
      deps.emit({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
      const report = (r: ToolReport) => {
        if (r.kind === "output") deps.emit({ type: "tool_output", id: call.id, text: r.text });
        else if (r.kind === "exit") exitCode = r.code;
        else deps.emit({ type: "tool_diff", id: call.id, path: r.path, ...r.diff });
      };
      result = await runToolCall(call, { ...deps, ctx: { ...deps.ctx, report } });
      if (result.usage) deps.onUsage?.(result.usage);
      if (deps.resultTokenCap !== undefined)
        result = { ...result, content: capResultContent(result.content, deps.resultTokenCap) };
    }
    deps.emit({
      type: "tool_result",
      id: call.id,
      name: call.name,
      is_error: result.is_error,
      content: contentWithImageMarkers(result.content),
      duration_ms: Date.now() - started,
      ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
    });
    return {
      role: "tool",
      tool_call_id: call.id,
      content: result.content,
      ...(result.is_error ? { meta: { is_error: true } } : {}),
    };
  }
}
