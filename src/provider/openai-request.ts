// History → OpenAI Chat Completions request body. Also what Ollama, llama.cpp, vLLM, LM Studio and
// OpenRouter accept, so only widely supported fields are used.
import type { History, ImagePart, Message } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { ByteLog } from "../lib/byte-log.ts";
import { PrefixCache } from "../lib/prefix-cache.ts";
import { wireToolId } from "../lib/tool-ids.ts";
import type { ModelRequest } from "./types.ts";

type OpenAiPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export type OpenAiMessage =
  | { role: "system" | "user"; content: string | OpenAiPart[] }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface OpenAiOptions {
  /** api.openai.com wants `max_completion_tokens` (reasoning models reject `max_tokens`); others the old name */
  useMaxCompletionTokens: boolean;
  /** more top-level fields, e.g. OpenRouter's `provider` routing and `reasoning` */
  extra?: Record<string, unknown>;
}

const dataUrl = (p: ImagePart) => `data:${p.media_type};base64,${p.data}`;

function userContent(msg: Message): string | OpenAiPart[] {
  if (typeof msg.content === "string") return msg.content;
  return msg.content.map((p) =>
    p.type === "text"
      ? { type: "text", text: p.text }
      : { type: "image_url", image_url: { url: dataUrl(p) } },
  );
}

function imagesOf(msg: Message): ImagePart[] {
  return typeof msg.content === "string" ? [] : msg.content.filter((p) => p.type === "image");
}

/**
 * Each message's wire form, made once: the whole history is converted for every request, and a message is
 * never mutated once in a history. Weak, so it goes with the message. The forms are shared between request
 * bodies, which are only serialised, never changed.
 */
const wireForms = new WeakMap<Message, OpenAiMessage | null>();

function wireForm(msg: Message): OpenAiMessage | null {
  let form = wireForms.get(msg);
  if (form === undefined) {
    form = convert(msg);
    wireForms.set(msg, form);
  }
  return form;
}

function convert(msg: Message): OpenAiMessage | null {
  switch (msg.role) {
    case "system": {
      const text = contentText(msg.content);
      return text ? { role: "system", content: text } : null;
    }
    case "user":
      return { role: "user", content: userContent(msg) };
    case "assistant": {
      const text = contentText(msg.content);
      const calls = msg.tool_calls ?? [];
      if (calls.length === 0) return { role: "assistant", content: text };
      return {
        role: "assistant",
        content: text || null,
        tool_calls: calls.map((c) => ({
          id: wireToolId(c.id, "openai"),
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
    case "tool":
      return {
        role: "tool",
        tool_call_id: wireToolId(msg.tool_call_id ?? "", "openai"),
        content: contentText(msg.content),
      };
  }
}

/** The user turn that carries the images a batch of tool results returned (tool messages carry text only). */
function imagesTurn(images: readonly ImagePart[]): OpenAiMessage {
  return {
    role: "user",
    content: [
      { type: "text", text: "Images returned by the tool calls above:" },
      ...images.map((p): OpenAiPart => ({ type: "image_url", image_url: { url: dataUrl(p) } })),
    ],
  };
}

export function toOpenAiMessages(history: History): OpenAiMessage[] {
  const out: OpenAiMessage[] = [];
  // Tool messages carry text only in this format; images a tool returned follow the batch as a user turn.
  let pendingImages: ImagePart[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push(imagesTurn(pendingImages));
    pendingImages = [];
  };
  for (const msg of history) {
    if (msg.role !== "tool") flushImages();
    const form = wireForm(msg);
    if (form) out.push(form);
    if (msg.role === "tool" && typeof msg.content !== "string") pendingImages.push(...imagesOf(msg));
  }
  flushImages();
  return out;
}

/**
 * The JSON of toOpenAiMessages(history)'s elements (comma-separated, without the brackets), as UTF-8 kept
 * per history array and extended with its new messages: between two requests the history only grows, and
 * serialising all of it again for every request is what made a request cost grow with the session. Images
 * of the trailing tool batch are not in `log` yet (the batch may grow): they are in `pending`.
 */
interface MessagesBytes {
  log: ByteLog;
  count: number;
  pending: ImagePart[];
}

function appendJson(s: MessagesBytes, form: OpenAiMessage): void {
  const json = JSON.stringify(form);
  s.log.append(s.count === 0 ? json : `,${json}`);
  s.count++;
}

const messagesBytes = new PrefixCache<MessagesBytes>(
  () => ({ log: new ByteLog(), count: 0, pending: [] }),
  (s, item) => {
    const msg = item as Message;
    if (msg.role !== "tool" && s.pending.length > 0) {
      appendJson(s, imagesTurn(s.pending));
      s.pending = [];
    }
    const form = wireForm(msg);
    if (form) appendJson(s, form);
    if (msg.role === "tool" && typeof msg.content !== "string") s.pending.push(...imagesOf(msg));
  },
);

/**
 * The `tools` member of a request (`,"tools":[…]`) as UTF-8, made once per tool list: the list is the
 * same array from request to request while the declarations stay the same (the standard tools are ~10 KB
 * of JSON, an MCP server's 36 tools some 18 KB), and encoding it again for every request was per-turn work.
 */
const toolsMember = new WeakMap<readonly unknown[], Uint8Array>();
const encoder = new TextEncoder();
function toolsBytes(tools: ModelRequest["tools"], body: unknown): Uint8Array {
  let bytes = toolsMember.get(tools);
  if (bytes === undefined) {
    bytes = encoder.encode(`,"tools":${JSON.stringify(body)}`);
    toolsMember.set(tools, bytes);
  }
  return bytes;
}

/** The declarations in the wire's form, mapped once per tool list (see toolsBytes). */
const wireTools = new WeakMap<readonly unknown[], unknown[]>();
function wireToolsOf(tools: ModelRequest["tools"]): unknown[] {
  let mapped = wireTools.get(tools);
  if (mapped === undefined) {
    mapped = tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.input_schema },
    }));
    wireTools.set(tools, mapped);
  }
  return mapped;
}

/**
 * Exactly the UTF-8 of JSON.stringify(openAiRequestBody(req, opts)), with the messages' bytes kept for
 * this history: the same bytes without serialising the whole history again for every request. A view of
 * the kept buffer: it holds until the next request of the same history is made, so hand it to fetch
 * (which copies it) straight away.
 */
export function openAiRequestBytes(req: ModelRequest, opts: OpenAiOptions): Uint8Array<ArrayBuffer> {
  const { messages: _messages, ...rest } = openAiRequestBody({ ...req, messages: [] }, opts);
  const s = messagesBytes.of(req.messages);
  const tail: (string | Uint8Array)[] = [];
  let text = "";
  if (s.pending.length > 0) text = `${s.count === 0 ? "" : ","}${JSON.stringify(imagesTurn(s.pending))}`;
  text += "]";
  for (const [k, v] of Object.entries(rest)) {
    if (k === "model") continue;
    if (k === "tools") {
      tail.push(text, toolsBytes(req.tools, v));
      text = "";
    } else text += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  }
  tail.push(`${text}}`);
  return s.log.framed(`{"model":${JSON.stringify(rest.model)},"messages":[`, tail);
}

export function openAiRequestBody(req: ModelRequest, opts: OpenAiOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: toOpenAiMessages(req.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.tools.length > 0) body.tools = wireToolsOf(req.tools);
  if (req.max_output_tokens !== undefined) {
    body[opts.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens"] = req.max_output_tokens;
  }
  if (opts.extra) for (const [k, v] of Object.entries(opts.extra)) if (!(k in body)) body[k] = v;
  return body;
}
