// A Responses API final response object → the assistant message, usage and stop reason the core expects.
// Text comes from the message items, tool calls from the function_call items, and every output item is
// kept in `adapter.responses.items` so the next request can replay the reasoning that led to this reply.
import type { ToolCall } from "../../src/contract/history.ts";
import type { HookReply } from "../../src/contract/hooks.ts";
import { FunctionCallItem, MessageItem, type ResponseObject } from "./schemas.ts";

/** What `wire_response` adds to the data: the assistant message, usage and stop reason. */
export type WireReply = Pick<HookReply<"wire_response">, "message" | "usage" | "stop">;

export function replyFromResponse(response: ResponseObject): WireReply {
  const items = response.output ?? [];
  let text = "";
  const calls: ToolCall[] = [];
  for (const item of items) {
    const message = MessageItem.safeParse(item);
    if (message.success) {
      // A refusal is the model's answer too: shown as text, as it streamed.
      for (const part of message.data.content) text += part.text ?? part.refusal ?? "";
      continue;
    }
    const call = FunctionCallItem.safeParse(item);
    // Missing ids and names are left empty for the core to repair, as it does for every wire format.
    if (call.success)
      calls.push({
        id: call.data.call_id ?? "",
        name: call.data.name ?? "",
        arguments: call.data.arguments ?? "",
      });
  }
  const message: WireReply["message"] = { role: "assistant", content: text };
  if (calls.length > 0) message.tool_calls = calls;
  if (items.length > 0) message.adapter = { responses: { items } };

  const reply: WireReply = { message, stop: stopReason(response, calls.length > 0) };
  const u = response.usage;
  if (u) {
    reply.usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens };
    const cached = u.input_tokens_details?.cached_tokens;
    if (cached) reply.usage.cache_read_tokens = cached;
  }
  return reply;
}

function stopReason(response: ResponseObject, hasCalls: boolean): WireReply["stop"] {
  if (response.incomplete_details?.reason === "max_output_tokens") return "length";
  if (hasCalls) return "tool_calls";
  // Incomplete for another reason (a content filter): the reply did not end normally.
  if (response.status === "incomplete") return "other";
  return "end";
}
