// History → a Responses API request body. The system message becomes `instructions`; user turns become
// input messages; an assistant turn replays the output items the API returned for it (so encrypted
// reasoning carries over between requests), or is rebuilt from its text and tool calls; tool results
// become function_call_output items. Requests are stateless (`store: false`): the whole conversation is
// sent every time and the server keeps nothing.
import type { ImagePart, Message, Part, ToolCall } from "../../src/contract/history.ts";
import { contentText } from "../../src/contract/history.ts";
import type { WireRequestData } from "../../src/contract/hooks.ts";
import { wireToolId } from "../../src/lib/tool-ids.ts";
import { FunctionCallItem, type OutputItem, ReasoningItem, ResponsesAdapter } from "./schemas.ts";

type InputItem = Record<string, unknown>;
type InputPart = { type: "input_text"; text: string } | { type: "input_image"; image_url: string };

export const ENCRYPTED_REASONING = "reasoning.encrypted_content";

/**
 * Whether the model returns encrypted reasoning: the o-series, gpt-5 (not its chat variant) and codex
 * models do; the API refuses the `include` for others ("Encrypted content is not supported with this
 * model"), so it is asked for only by name.
 */
export function supportsEncryptedReasoning(model: string): boolean {
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  if (/^gpt-5(\.\d+)?-chat/.test(name)) return false;
  return /^(o\d+($|[-.:])|gpt-5|codex)/.test(name);
}

const dataUrl = (p: ImagePart) => `data:${p.media_type};base64,${p.data}`;

function inputParts(content: string | Part[]): InputPart[] {
  if (typeof content === "string") return [{ type: "input_text", text: content }];
  return content.map((p) =>
    p.type === "text" ? { type: "input_text", text: p.text } : { type: "input_image", image_url: dataUrl(p) },
  );
}

function assistantText(text: string): InputItem {
  return { type: "message", role: "assistant", content: [{ type: "output_text", text }] };
}

/** Call ids as OpenAI accepts them (a session may hold ids another wire minted); calls and outputs map alike. */
const callId = (id: string) => wireToolId(id, "openai");

function functionCall(call: ToolCall): InputItem {
  return { type: "function_call", call_id: callId(call.id), name: call.name, arguments: call.arguments };
}

/**
 * The stored output items, replayed in order with three exceptions, each to keep a stateless request
 * valid: item `id`s of messages and calls are dropped (the server stored nothing to look them up in);
 * reasoning without encrypted content is dropped (its id alone refers to nothing); a call takes its id,
 * name and arguments from the history, whose ids are what the tool results answer (the core may have
 * repaired them). Item types this module never asks for are dropped.
 */
function replayItems(items: OutputItem[], msg: Message): InputItem[] {
  const calls = msg.tool_calls ?? [];
  const out: InputItem[] = [];
  let nextCall = 0;
  let sawMessage = false;
  for (const item of items) {
    if (FunctionCallItem.safeParse(item).success) {
      const call = calls[nextCall++];
      // A call the history does not have would have no output, which the API refuses.
      if (!call) continue;
      const { id: _id, ...rest } = item;
      out.push({ ...rest, ...functionCall(call) });
    } else if (item.type === "message") {
      const { id: _id, ...rest } = item;
      out.push(rest);
      sawMessage = true;
    } else if (item.type === "reasoning") {
      if (ReasoningItem.safeParse(item).data?.encrypted_content) out.push(item);
    }
  }
  const text = contentText(msg.content);
  if (!sawMessage && text) {
    const firstCall = out.findIndex((i) => i.type === "function_call");
    out.splice(firstCall === -1 ? out.length : firstCall, 0, assistantText(text));
  }
  for (; nextCall < calls.length; nextCall++) out.push(functionCall(calls[nextCall] as ToolCall));
  return out;
}

function assistantItems(msg: Message, log: (m: string) => void): InputItem[] {
  const stored = msg.adapter?.responses;
  if (stored !== undefined) {
    const parsed = ResponsesAdapter.safeParse(stored);
    if (parsed.success) return replayItems(parsed.data.items, msg);
    // Private state only: the message itself is still complete, so rebuild it rather than fail the turn.
    log("responses: ignoring an unreadable adapter.responses on an assistant message");
  }
  const text = contentText(msg.content);
  return [...(text ? [assistantText(text)] : []), ...(msg.tool_calls ?? []).map(functionCall)];
}

/** A tool result's text; images are named here and sent in a user message after the batch. */
function toolOutput(msg: Message): { text: string; images: ImagePart[] } {
  if (typeof msg.content === "string") return { text: msg.content, images: [] };
  const images = msg.content.filter((p): p is ImagePart => p.type === "image");
  const text = msg.content
    .map((p) => (p.type === "text" ? p.text : `[image ${p.media_type}: attached after the tool results]`))
    .join("\n");
  return { text, images };
}

export function toInput(
  history: Message[],
  log: (m: string) => void = () => {},
): { instructions?: string; input: InputItem[] } {
  const input: InputItem[] = [];
  let instructions: string | undefined;
  // function_call_output carries text only; images a tool returned follow the batch as a user message.
  let pendingImages: ImagePart[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    input.push({
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "Images returned by the tool calls above:" },
        ...pendingImages.map((p) => ({ type: "input_image", image_url: dataUrl(p) })),
      ],
    });
    pendingImages = [];
  };
  history.forEach((msg, i) => {
    if (msg.role !== "tool") flushImages();
    switch (msg.role) {
      case "system": {
        const text = contentText(msg.content);
        if (i === 0) instructions = text || undefined;
        // A later system message has no place of its own: it goes in as a developer message.
        else if (text) input.push({ type: "message", role: "developer", content: inputParts(text) });
        break;
      }
      case "user":
        input.push({ type: "message", role: "user", content: inputParts(msg.content) });
        break;
      case "assistant":
        input.push(...assistantItems(msg, log));
        break;
      case "tool": {
        const { text, images } = toolOutput(msg);
        input.push({ type: "function_call_output", call_id: callId(msg.tool_call_id ?? ""), output: text });
        pendingImages.push(...images);
        break;
      }
    }
  });
  flushImages();
  return { ...(instructions !== undefined ? { instructions } : {}), input };
}

/** The request body (without `stream`, which the core sets), over any body an earlier module started. */
export function requestBody(data: WireRequestData, log?: (m: string) => void): Record<string, unknown> {
  const base = data.body ?? {};
  const { instructions, input } = toInput(data.messages, log);
  const body: Record<string, unknown> = { ...base, model: data.model };
  if (instructions !== undefined) body.instructions = instructions;
  body.input = input;
  if (data.tools.length > 0) {
    body.tools = data.tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description,
      parameters: t.input_schema,
      strict: false,
    }));
  }
  body.store = false;
  if (supportsEncryptedReasoning(data.model)) {
    const earlier = Array.isArray(base.include) ? base.include : [];
    body.include = [...new Set([...earlier, ENCRYPTED_REASONING])];
  }
  if (data.max_output_tokens !== undefined) body.max_output_tokens = data.max_output_tokens;
  return body;
}
