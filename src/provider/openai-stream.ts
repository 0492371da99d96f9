// OpenAI Chat Completions stream → StreamEvents and the final reply. Tool calls arrive as fragments keyed
// by `index` (id and name in the first, argument text spread over many, several calls interleaved);
// servers differ in the details (some omit index, repeat the id, or send the whole call at once).
import { z } from "zod";
import { streamError } from "./errors.ts";
import { ReplyDecoder } from "./reply-builder.ts";
import type { SseEvent } from "./sse.ts";
import { badStreamData, parseChunk, truncatedError } from "./transport.ts";
import type { ModelResponse, StopReason, Usage } from "./types.ts";

const ToolCallDelta = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const OpenAiChunk = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().int().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            /** reasoning models behind compatible servers (DeepSeek, vLLM, llama.cpp; OpenRouter's name) */
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(ToolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z
    .object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
      /** OpenRouter's usage accounting: what the request cost, in USD */
      cost: z.number().nonnegative().nullish(),
    })
    .nullish(),
  error: z.unknown().optional(),
});

type ToolCallDelta = z.infer<typeof ToolCallDelta>;

/** A call being assembled; announced to the caller once its name is known. */
interface PartialCall {
  rawId?: string;
  name?: string;
  /** argument text received before the name (emitted once announced) */
  early: string;
  position?: number;
}

export class OpenAiDecoder extends ReplyDecoder<ModelResponse> {
  private readonly calls = new Map<number, PartialCall>();
  private finishReason: string | undefined;
  private usage: Usage | undefined;

  event(ev: SseEvent): void {
    const data = ev.data.trim();
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    if (!data) return;
    const raw = parseChunk(this.site, data);
    const parsed = OpenAiChunk.safeParse(raw);
    if (!parsed.success) throw badStreamData(this.site, "unexpected stream chunk", data);
    const chunk = parsed.data;
    if (chunk.error !== undefined && chunk.error !== null) throw streamError(this.site, data);
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // we never ask for n > 1
      const thought = choice.delta?.reasoning_content ?? choice.delta?.reasoning;
      if (thought) this.reply.reasoning(thought);
      if (choice.delta?.content) this.reply.text(choice.delta.content);
      for (const d of choice.delta?.tool_calls ?? []) this.toolDelta(d);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  private toolDelta(d: ToolCallDelta): void {
    const index = this.indexFor(d);
    let call = this.calls.get(index);
    if (!call) {
      call = { early: "" };
      this.calls.set(index, call);
    }
    if (d.id && call.rawId === undefined) call.rawId = d.id;
    if (d.function?.name && call.name === undefined) call.name = d.function.name;
    const args = d.function?.arguments ?? "";
    if (call.position === undefined && call.name !== undefined) {
      call.position = this.reply.startCall(call.rawId, call.name);
      this.reply.appendArguments(call.position, call.early);
      call.early = "";
    }
    if (call.position === undefined) call.early += args;
    else this.reply.appendArguments(call.position, args);
  }

  /** Servers that omit `index` send each call whole, or continue the last one without an id. */
  private indexFor(d: ToolCallDelta): number {
    if (d.index !== undefined && d.index !== null) return d.index;
    for (const [i, c] of this.calls) if (d.id && c.rawId === d.id) return i;
    const last = Math.max(-1, ...this.calls.keys());
    return d.id || d.function?.name || last < 0 ? last + 1 : last;
  }

  finish(): ModelResponse {
    if (!this.done && this.finishReason === undefined) throw truncatedError(this.site);
    // Calls whose name never came: announce them now so they are still answered (as unknown tools).
    for (const call of this.calls.values()) {
      if (call.position !== undefined) continue;
      call.position = this.reply.startCall(call.rawId, call.name);
      this.reply.appendArguments(call.position, call.early);
    }
    return {
      message: this.reply.message(),
      stop: stopReason(this.finishReason, this.reply.hasToolCalls),
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}

function usageOf(u: z.infer<typeof OpenAiChunk>["usage"] & object): Usage {
  const usage: Usage = { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (cached) usage.cache_read_tokens = cached;
  if (typeof u.cost === "number") usage.cost_usd = u.cost;
  return usage;
}

function stopReason(finish: string | undefined, hasToolCalls: boolean): StopReason {
  if (finish === "length") return "length";
  // Ollama and others report "stop" even when the reply is tool calls.
  if (hasToolCalls) return "tool_calls";
  if (finish === "stop") return "end";
  return "other";
}
