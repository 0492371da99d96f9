// The two hook calls that let the responses module shape the Responses wire format: `wire_request` turns
// the request into the JSON body, `wire_response` turns the final response object into the assistant
// message. The host checks each reply against the hook's schema; here the tool-call ids are repaired, as
// for every wire.
import { ToolIdAllocator } from "../lib/tool-ids.ts";
import type { HookData, HookRunner } from "../worker/types.ts";
import { MISSING_TOOL_NAME } from "./reply-builder.ts";
import type { ModelRequest, ModelResponse } from "./types.ts";

/** True when the manifest has a module for both hooks, i.e. the Responses wire can be shaped at all. */
export function hasWireHooks(hooks: HookRunner): boolean {
  return hooks.hasHook("wire_request") && hooks.hasHook("wire_response");
}

/** The Responses request body for `req`, from the wire_request pipeline; the core adds `stream: true`. */
export async function wireRequestBody(
  hooks: HookRunner,
  req: ModelRequest,
): Promise<Record<string, unknown>> {
  const data: HookData = {
    model: req.model,
    messages: req.messages,
    tools: req.tools,
    ...(req.max_output_tokens !== undefined ? { max_output_tokens: req.max_output_tokens } : {}),
    hints: req.hints ?? {},
    body: null,
  };
  const reply = await hooks.runHook("wire_request", data);
  return { ...reply.body, stream: true };
}

/** The assistant reply for a final `response` object, from the wire_response pipeline. */
export async function wireResponse(
  hooks: HookRunner,
  req: ModelRequest,
  response: Record<string, unknown>,
): Promise<ModelResponse> {
  const { message, usage, stop } = await hooks.runHook("wire_response", { model: req.model, response });
  // Same repair as the other wires: every call gets an id unique in this reply and the history it answers.
  const ids = new ToolIdAllocator(req.messages);
  const calls = (message.tool_calls ?? []).map((c) => ({
    id: ids.claim(c.id),
    name: c.name || MISSING_TOOL_NAME,
    arguments: c.arguments,
  }));
  const { tool_calls: _raw, ...rest } = message;
  const out: ModelResponse = { message: calls.length > 0 ? { ...rest, tool_calls: calls } : rest, stop };
  if (usage) out.usage = usage;
  return out;
}
