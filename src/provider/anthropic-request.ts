// History → Anthropic Messages request body. The system message moves to the top-level `system`; tool
// results become `tool_result` blocks in a user turn; consecutive same-role turns are merged because the
// API wants user and assistant to alternate, with a call's results first in the very next user turn.
import type { Message, Part } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { wireToolId } from "../lib/tool-ids.ts";
import { type ThinkingBlock, thinkingBlocksOf } from "./anthropic-thinking.ts";
import { lookupModel } from "./models.ts";
import type { ModelRequest } from "./types.ts";

type CacheControl = { type: "ephemeral" };
type TextBlock = { type: "text"; text: string; cache_control?: CacheControl };
type ImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
  cache_control?: CacheControl;
};
type ToolUseBlock = {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
};
type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content?: (TextBlock | ImageBlock)[];
  is_error?: boolean;
  cache_control?: CacheControl;
};
export type AnthropicBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock;
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

/** Used when neither the request nor the model table gives an output limit (the API requires one). */
export const FALLBACK_MAX_TOKENS = 4096;
/** The API accepts at most four cache breakpoints per request. */
const MAX_BREAKPOINTS = 4;

function partBlocks(parts: string | Part[]): (TextBlock | ImageBlock)[] {
  if (typeof parts === "string") return parts ? [{ type: "text", text: parts }] : [];
  const out: (TextBlock | ImageBlock)[] = [];
  for (const p of parts) {
    // Empty text blocks are rejected by the API.
    if (p.type === "text" && p.text) out.push({ type: "text", text: p.text });
    if (p.type === "image") {
      out.push({ type: "image", source: { type: "base64", media_type: p.media_type, data: p.data } });
    }
  }
  return out;
}

/**
 * Tool input must be a JSON object. Arguments that are not (empty, truncated, invalid) are still sent so
 * the model sees what it produced; the tool result already told it they were unusable.
 */
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

/** `thinking`: the request has extended thinking on, so an assistant turn's signed thinking goes back first. */
function blocksOf(msg: Message, thinking: boolean): AnthropicBlock[] {
  switch (msg.role) {
    case "tool": {
      const block: ToolResultBlock = {
        type: "tool_result",
        tool_use_id: wireToolId(msg.tool_call_id ?? "", "anthropic"),
      };
      const content = partBlocks(msg.content);
      if (content.length > 0) block.content = content;
      if (msg.meta?.is_error === true) block.is_error = true;
      return [block];
    }
    case "assistant": {
      const blocks: AnthropicBlock[] = thinking ? [...thinkingBlocksOf(msg)] : [];
      blocks.push(...partBlocks(contentText(msg.content)));
      for (const c of msg.tool_calls ?? []) {
        blocks.push({
          type: "tool_use",
          id: wireToolId(c.id, "anthropic"),
          name: c.name,
          input: toolInput(c.arguments),
        });
      }
      return blocks;
    }
    default:
      return partBlocks(msg.content);
  }
}

export function anthropicRequestBody(req: ModelRequest): Record<string, unknown> {
  const marks = cacheMarks(req.hints);
  const [first, ...rest] = req.messages;
  const system: TextBlock[] = [];
  const messages: AnthropicMessage[] = [];
  const startIndex = first?.role === "system" ? 1 : 0;
  if (first?.role === "system") {
    const text = contentText(first.content);
    if (text)
      system.push({ type: "text", text, ...(marks.has(0) ? { cache_control: { type: "ephemeral" } } : {}) });
  }
  const body = startIndex === 1 ? rest : req.messages;
  const thinking = req.thinking_budget !== undefined;
  body.forEach((msg, i) => {
    const blocks = blocksOf(msg, thinking);
    if (blocks.length === 0) return;
    const last = blocks[blocks.length - 1];
    // Thinking blocks take no cache mark of their own (the API caches them with the turn around them).
    if (last && marks.has(i + startIndex) && last.type !== "thinking" && last.type !== "redacted_thinking")
      last.cache_control = { type: "ephemeral" };
    // A stray system message later in the history is sent as user text: the API has no such turn.
    const role = msg.role === "assistant" ? "assistant" : "user";
    const prev = messages[messages.length - 1];
    if (prev && prev.role === role) prev.content.push(...blocks);
    else messages.push({ role, content: blocks });
  });
  let maxTokens = req.max_output_tokens ?? lookupModel(req.model)?.max_output_tokens ?? FALLBACK_MAX_TOKENS;
  // The budget must stay below max_tokens: an unknown model's fallback limit leaves room for an answer.
  if (req.thinking_budget !== undefined && maxTokens <= req.thinking_budget)
    maxTokens = req.thinking_budget + FALLBACK_MAX_TOKENS;
  const out: Record<string, unknown> = { model: req.model, max_tokens: maxTokens, messages, stream: true };
  if (req.thinking_budget !== undefined)
    out.thinking = { type: "enabled", budget_tokens: req.thinking_budget };
  if (system.length > 0) out.system = marks.has(0) ? system : system.map((b) => b.text).join("\n");
  if (req.tools.length > 0) {
    out.tools = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.input_schema,
    }));
  }
  return out;
}

/** History indexes to mark for prompt caching (`hints.cache_breakpoints`), the latest four at most. */
function cacheMarks(hints: Record<string, unknown> | undefined): Set<number> {
  const raw = hints?.cache_breakpoints;
  if (!Array.isArray(raw)) return new Set();
  const idx = raw.filter((n): n is number => Number.isInteger(n) && n >= 0).sort((a, b) => a - b);
  return new Set(idx.slice(-MAX_BREAKPOINTS));
}
