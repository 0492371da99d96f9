// Anthropic Messages stream → StreamEvents and the final reply: message_start (input usage),
// content_block_start/delta/stop per text, tool_use, thinking or redacted_thinking block, message_delta
// (stop reason, output usage), message_stop. Thinking streams as reasoning and is kept, signed, in the
// message's wire state. Event types we do not use (ping, server tools, future additions) are ignored.
import { z } from "zod";
import { ThinkingAssembly, withThinkingBlocks } from "./anthropic-thinking.ts";
import { streamError } from "./errors.ts";
import { ReplyDecoder } from "./reply-builder.ts";
import type { SseEvent } from "./sse.ts";
import { badStreamData, parseChunk, truncatedError } from "./transport.ts";
import type { ModelResponse, StopReason, Usage } from "./types.ts";

const AnthropicUsage = z.lazy(() =>
  z.object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
  }),
);

export const AnthropicStreamEvent = z.lazy(() =>
  z.object({
    type: z.string(),
    index: z.number().int().nonnegative().optional(),
    message: z.object({ usage: AnthropicUsage.nullish() }).optional(),
    content_block: z
      .object({
        type: z.string(),
        id: z.string().nullish(),
        name: z.string().nullish(),
        text: z.string().nullish(),
        input: z.unknown().optional(),
        thinking: z.string().nullish(),
        signature: z.string().nullish(),
        data: z.string().nullish(),
      })
      .optional(),
    delta: z
      .object({
        type: z.string().optional(),
        text: z.string().nullish(),
        partial_json: z.string().nullish(),
        thinking: z.string().nullish(),
        signature: z.string().nullish(),
        stop_reason: z.string().nullish(),
      })
      .optional(),
    usage: AnthropicUsage.nullish(),
  }),
);

type UsageFields = z.infer<typeof AnthropicUsage>;

/** What the reasoning shows for a redacted_thinking block (kept, sent back, never readable). */
export const REDACTED_SHOWN = "[some of the reasoning was redacted by the provider]";

interface Block {
  kind: "text" | "tool" | "thinking" | "other";
  position?: number;
  input?: unknown;
}

export class AnthropicDecoder extends ReplyDecoder<ModelResponse> {
  private readonly blocks = new Map<number, Block>();
  private readonly thinking = new ThinkingAssembly();
  /** the thinking block whose text was shown last: a later block's text is set apart from it */
  private shownIndex: number | undefined;
  private readonly usage: UsageFields = {};
  private stopReasonRaw: string | undefined;

  event(ev: SseEvent): void {
    const raw = parseChunk(this.site, ev.data);
    if ((raw as { type?: unknown } | null)?.type === "error") throw streamError(this.site, ev.data);
    const parsed = AnthropicStreamEvent.safeParse(raw);
    if (!parsed.success) throw badStreamData(this.site, "unexpected stream event", ev.data);
    const e = parsed.data;
    switch (e.type) {
      case "message_start":
        this.addUsage(e.message?.usage);
        break;
      case "content_block_start":
        this.startBlock(e.index ?? 0, e.content_block);
        break;
      case "content_block_delta": {
        const block = this.blocks.get(e.index ?? 0);
        if (block?.kind === "text" && e.delta?.text) this.reply.text(e.delta.text);
        if (block?.kind === "tool" && block.position !== undefined && e.delta?.partial_json) {
          this.reply.appendArguments(block.position, e.delta.partial_json);
        }
        if (block?.kind === "thinking") this.thinkingDelta(e.index ?? 0, e.delta);
        break;
      }
      case "content_block_stop":
        this.stopBlock(e.index ?? 0);
        break;
      case "message_delta":
        if (e.delta?.stop_reason) this.stopReasonRaw = e.delta.stop_reason;
        this.addUsage(e.usage);
        break;
      case "message_stop":
        this.done = true;
        break;
    }
  }

  private startBlock(index: number, cb: z.infer<typeof AnthropicStreamEvent>["content_block"]): void {
    if (cb?.type === "text") {
      this.blocks.set(index, { kind: "text" });
      if (cb.text) this.reply.text(cb.text);
    } else if (cb?.type === "tool_use") {
      this.blocks.set(index, {
        kind: "tool",
        position: this.reply.startCall(cb.id, cb.name),
        input: cb.input,
      });
    } else if (cb?.type === "thinking") {
      this.blocks.set(index, { kind: "thinking" });
      this.thinking.start(index, { type: "thinking", thinking: "", signature: cb.signature ?? "" });
      this.thinkingDelta(index, { thinking: cb.thinking });
    } else if (cb?.type === "redacted_thinking" && cb.data) {
      this.blocks.set(index, { kind: "other" });
      this.thinking.start(index, { type: "redacted_thinking", data: cb.data });
      // Its text is encrypted: the reasoning shown says only that some was there.
      this.thinkingDelta(index, { thinking: REDACTED_SHOWN });
    } else {
      this.blocks.set(index, { kind: "other" }); // server tools, future types: not part of our history
    }
  }

  /** Thinking text shown as reasoning and, for a thinking block, added to it; a signature piece kept. */
  private thinkingDelta(index: number, delta: { thinking?: string | null; signature?: string | null } = {}) {
    if (delta.thinking) {
      this.thinking.thinking(index, delta.thinking);
      const apart = this.shownIndex !== undefined && this.shownIndex !== index;
      this.reply.reasoning(apart ? `\n\n${delta.thinking}` : delta.thinking);
      this.shownIndex = index;
    }
    if (delta.signature) this.thinking.signature(index, delta.signature);
  }

  /** A tool without parameters streams no JSON at all; its input is then the block's initial object. */
  private stopBlock(index: number): void {
    const block = this.blocks.get(index);
    if (block?.kind !== "tool" || block.position === undefined) return;
    if (this.reply.argumentsOf(block.position) === "") {
      this.reply.appendArguments(block.position, JSON.stringify(block.input ?? {}));
    }
  }

  private addUsage(u: UsageFields | null | undefined): void {
    if (!u) return;
    for (const [k, v] of Object.entries(u) as [keyof UsageFields, number | null | undefined][]) {
      if (typeof v === "number") this.usage[k] = v;
    }
  }

  finish(): ModelResponse {
    if (!this.done && this.stopReasonRaw === undefined) throw truncatedError(this.site);
    for (const index of this.blocks.keys()) this.stopBlock(index); // blocks left open by a cut stream
    const u = this.usage;
    const cacheRead = u.cache_read_input_tokens ?? 0;
    const cacheWrite = u.cache_creation_input_tokens ?? 0;
    const usage: Usage = {
      input_tokens: (u.input_tokens ?? 0) + cacheRead + cacheWrite,
      output_tokens: u.output_tokens ?? 0,
    };
    if (cacheRead) usage.cache_read_tokens = cacheRead;
    if (cacheWrite) usage.cache_write_tokens = cacheWrite;
    const hasUsage = u.input_tokens != null || u.output_tokens != null;
    return {
      message: withThinkingBlocks(this.reply.message(), this.thinking.done()),
      stop: stopReason(this.stopReasonRaw, this.reply.hasToolCalls),
      ...(hasUsage ? { usage } : {}),
    };
  }
}

function stopReason(raw: string | undefined, hasToolCalls: boolean): StopReason {
  if (raw === "max_tokens" || raw === "model_context_window_exceeded") return "length";
  if (hasToolCalls) return "tool_calls";
  if (raw === "end_turn" || raw === "stop_sequence") return "end";
  return "other";
}
