// History → Bedrock Converse request body. The system message goes to `system`; tool results become
// toolResult blocks in a user turn; consecutive same-role turns merge (Converse wants user and assistant to
// alternate); images are base64 bytes with their format. Prompt caching: the breakpoints the cache module
// asks for become cachePoint blocks (Claude and Nova honour them), on the system prompt and after marked
// turns, four at most. Claude's extended thinking goes in additionalModelRequestFields.
import type { Message, Part } from "../../contract/history.ts";
import { contentText } from "../../contract/history.ts";
import { wireToolId } from "../../lib/tool-ids.ts";
import { FALLBACK_MAX_TOKENS } from "../anthropic-request.ts";
import { lookupModel } from "../models.ts";
import type { ModelRequest } from "../types.ts";
import { reasoningBlocksOf } from "./state.ts";

type Block = Record<string, unknown>;
interface ConverseMessage {
  role: "user" | "assistant";
  content: Block[];
}

const CACHE_POINT: Block = { cachePoint: { type: "default" } };
const MAX_CACHE_POINTS = 4;

function imageFormat(mediaType: string): string {
  const sub = mediaType.slice(mediaType.indexOf("/") + 1).toLowerCase();
  return sub === "jpg" ? "jpeg" : sub;
}

function partBlocks(content: string | Part[]): Block[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  const out: Block[] = [];
  for (const p of content) {
    if (p.type === "text" && p.text) out.push({ text: p.text });
    if (p.type === "image")
      out.push({ image: { format: imageFormat(p.media_type), source: { bytes: p.data } } });
  }
  return out;
}

function toolInput(args: string): unknown {
  if (args.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  return { invalid_arguments: args };
}

function blocksOf(msg: Message, thinking: boolean): Block[] {
  if (msg.role === "tool") {
    const content = partBlocks(msg.content);
    return [
      {
        toolResult: {
          toolUseId: wireToolId(msg.tool_call_id ?? "", "anthropic"),
          // Converse refuses a toolResult without content.
          content: content.length > 0 ? content : [{ text: "(no output)" }],
          ...(msg.meta?.is_error === true ? { status: "error" } : {}),
        },
      },
    ];
  }
  if (msg.role !== "assistant") return partBlocks(msg.content);
  const out: Block[] = [];
  if (thinking) {
    for (const r of reasoningBlocksOf(msg)) {
      out.push({
        reasoningContent:
          "redacted" in r
            ? { redactedContent: r.redacted }
            : { reasoningText: { text: r.text, signature: r.signature } },
      });
    }
  }
  out.push(...partBlocks(contentText(msg.content)));
  for (const c of msg.tool_calls ?? []) {
    out.push({
      toolUse: { toolUseId: wireToolId(c.id, "anthropic"), name: c.name, input: toolInput(c.arguments) },
    });
  }
  return out;
}

function cacheMarks(hints: Record<string, unknown> | undefined): Set<number> {
  const raw = hints?.cache_breakpoints;
  if (!Array.isArray(raw)) return new Set();
  const idx = raw.filter((n): n is number => Number.isInteger(n) && n >= 0).sort((a, b) => a - b);
  return new Set(idx.slice(-MAX_CACHE_POINTS));
}

export function bedrockRequestBody(req: ModelRequest): Record<string, unknown> {
  const marks = cacheMarks(req.hints);
  const thinking = req.thinking_budget !== undefined && /claude/i.test(req.model);
  const system: Block[] = [];
  const messages: ConverseMessage[] = [];
  req.messages.forEach((msg, i) => {
    if (i === 0 && msg.role === "system") {
      const text = contentText(msg.content);
      if (text) system.push({ text });
      if (text && marks.has(0)) system.push(CACHE_POINT);
      return;
    }
    const blocks = blocksOf(msg, thinking);
    if (blocks.length === 0) return;
    if (marks.has(i)) blocks.push(CACHE_POINT);
    const role = msg.role === "assistant" ? "assistant" : "user";
    const prev = messages[messages.length - 1];
    if (prev && prev.role === role) prev.content.push(...blocks);
    else messages.push({ role, content: blocks });
  });
  let maxTokens = req.max_output_tokens ?? lookupModel(req.model)?.max_output_tokens ?? FALLBACK_MAX_TOKENS;
  if (thinking && req.thinking_budget !== undefined && maxTokens <= req.thinking_budget)
    maxTokens = req.thinking_budget + FALLBACK_MAX_TOKENS;
  const body: Record<string, unknown> = { messages, inferenceConfig: { maxTokens } };
  if (system.length > 0) body.system = system;
  if (thinking)
    body.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: req.thinking_budget } };
  // Last, so the text form can append the tools' JSON made once per tool list.
  if (req.tools.length > 0) body.toolConfig = toolConfig(req.tools);
  return body;
}

function toolConfig(tools: ModelRequest["tools"]): Record<string, unknown> {
  return {
    tools: tools.map((t) => ({
      toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.input_schema } },
    })),
  };
}

/**
 * Each message's blocks as JSON (comma-separated, without brackets), made once per message and thinking
 * mode: the whole history goes with every request, and a message is never changed once in a history.
 * Weak, so it goes with the message.
 */
const blockTexts = [new WeakMap<Message, string>(), new WeakMap<Message, string>()] as const;
const CACHE_POINT_TEXT = JSON.stringify(CACHE_POINT);
const toolTexts = new WeakMap<readonly unknown[], string>();

function blocksText(msg: Message, thinking: boolean): string {
  const cache = blockTexts[thinking ? 1 : 0];
  let text = cache.get(msg);
  if (text === undefined) {
    text = blocksOf(msg, thinking)
      .map((b) => JSON.stringify(b))
      .join(",");
    cache.set(msg, text);
  }
  return text;
}

/**
 * A turn's JSON, kept with its first message while its blocks are the same strings: the very same string
 * from one request to the next, so the body's hash (body-hash.ts) sees an unchanged turn at a glance.
 */
const turnTexts = new WeakMap<Message, { role: string; pieces: string[]; text: string }>();

function turnText(first: Message, role: string, pieces: string[]): string {
  const kept = turnTexts.get(first);
  if (
    kept &&
    kept.role === role &&
    kept.pieces.length === pieces.length &&
    kept.pieces.every((p, i) => p === pieces[i])
  )
    return kept.text;
  const text = `{"role":"${role}","content":[${pieces.join(",")}]}`;
  turnTexts.set(first, { role, pieces, text });
  return text;
}

/** The body's turns, each as JSON, and what follows them: the body is `{"messages":[` + turns + tail. */
export interface BodyParts {
  turns: string[];
  tail: string;
}

export const BODY_HEAD = '{"messages":[';

/** The parts of JSON.stringify(bedrockRequestBody(req)), from each message's JSON made once. */
export function bedrockRequestParts(req: ModelRequest): BodyParts {
  const marks = cacheMarks(req.hints);
  const thinking = req.thinking_budget !== undefined && /claude/i.test(req.model);
  const turns: string[] = [];
  let role: string | undefined;
  let first: Message | undefined;
  let content: string[] = [];
  const close = () => {
    if (role && first) turns.push(turnText(first, role, content));
  };
  req.messages.forEach((msg, i) => {
    if (i === 0 && msg.role === "system") return;
    let text = blocksText(msg, thinking);
    if (text === "") return;
    if (marks.has(i)) text += `,${CACHE_POINT_TEXT}`;
    const r = msg.role === "assistant" ? "assistant" : "user";
    if (r === role) content.push(text);
    else {
      close();
      role = r;
      first = msg;
      content = [text];
    }
  });
  close();
  // Everything but the turns and the tools, from the object form: the system prompt, limits, thinking.
  const head = req.messages[0]?.role === "system" ? req.messages.slice(0, 1) : [];
  const { messages: _none, ...rest } = bedrockRequestBody({ ...req, messages: head, tools: [] });
  let tools = "";
  if (req.tools.length > 0) {
    tools = toolTexts.get(req.tools) ?? JSON.stringify(toolConfig(req.tools));
    toolTexts.set(req.tools, tools);
    tools = `,"toolConfig":${tools}`;
  }
  return { turns, tail: `],${JSON.stringify(rest).slice(1, -1)}${tools}}` };
}

/**
 * Exactly JSON.stringify(bedrockRequestBody(req)), from each message's JSON made once: serialising the
 * whole history again for every request is what made a long session's requests cost more and more.
 */
export function bedrockRequestText(req: ModelRequest): string {
  const { turns, tail } = bedrockRequestParts(req);
  return `${BODY_HEAD}${turns.join(",")}${tail}`;
}
