// Runs one batch of tool calls from an assistant message: core tools in-process, module tools through their
// worker. Every call gets exactly one result, in order, so the history stays valid whatever happens.
import { errorMessage } from "../cli/errors.ts";
import { contentWithImageMarkers, type Message, type ToolCall } from "../history/schema.ts";
import { runCoreTool } from "../tools/index.ts";
import { capText } from "../tools/truncate.ts";
import type { ToolContext, ToolResult } from "../tools/types.ts";
import type { HookRunner } from "../worker/types.ts";
import type { EmitEvent } from "./events.ts";

/** Module tool output is untrusted and unbounded; cap it before it enters history. */
const MODULE_OUTPUT_MAX_CHARS = 50_000;

export interface ToolBatchDeps {
  hooks: HookRunner;
  coreNames: ReadonlySet<string>;
  ctx: ToolContext;
  emit: EmitEvent;
}

async function runModuleTool(call: ToolCall, hooks: HookRunner): Promise<ToolResult> {
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch (err) {
    return { content: `invalid JSON arguments for ${call.name}: ${(err as Error).message}`, is_error: true };
  }
  try {
    const r = await hooks.callTool(call.name, args, call.id);
    if (typeof r.content === "string") return { ...r, content: capText(r.content, MODULE_OUTPUT_MAX_CHARS) };
    return r;
  } catch (err) {
    return { content: `tool ${call.name} failed: ${errorMessage(err)}`, is_error: true };
  }
}

export async function runToolCall(call: ToolCall, deps: ToolBatchDeps): Promise<ToolResult> {
  if (deps.coreNames.has(call.name)) return runCoreTool(call.name, call.arguments, deps.ctx);
  if (deps.hooks.toolDecls().some((t) => t.name === call.name)) return runModuleTool(call, deps.hooks);
  const names = [...deps.coreNames, ...deps.hooks.toolDecls().map((t) => t.name)].join(", ");
  return { content: `unknown tool "${call.name}"; available tools: ${names}`, is_error: true };
}

/** Results for every call of `calls`; after an abort the rest are answered as cancelled, never skipped. */
export async function runToolBatch(calls: ToolCall[], deps: ToolBatchDeps): Promise<Message[]> {
  const out: Message[] = [];
  for (const call of calls) {
    let result: ToolResult;
    if (deps.ctx.signal?.aborted) {
      result = { content: "cancelled by the user before it ran", is_error: true };
    } else {
      deps.emit({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
      result = await runToolCall(call, deps);
    }
    deps.emit({
      type: "tool_result",
      id: call.id,
      name: call.name,
      is_error: result.is_error,
      content: contentWithImageMarkers(result.content),
    });
    out.push({
      role: "tool",
      tool_call_id: call.id,
      content: result.content,
      ...(result.is_error ? { meta: { is_error: true } } : {}),
    });
  }
  return out;
}
