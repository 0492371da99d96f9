// Bedrock ConverseStream events → StreamEvents and the final reply. The event-stream reader (wire.ts)
// hands each frame on as an event named by its :event-type (or "exception:<type>" for an exception frame)
// with its JSON payload: messageStart, contentBlockStart (toolUse), contentBlockDelta (text, toolUse input,
// reasoningContent), contentBlockStop, messageStop (stopReason), then metadata (usage), the last frame.
import { z } from "zod";
import { looksLikeContextOverflow, redact } from "../errors.ts";
import { ReplyDecoder } from "../reply-builder.ts";
import type { SseEvent } from "../sse.ts";
import { badStreamData, parseChunk, truncatedError } from "../transport.ts";
import {
  type ModelResponse,
  ProviderError,
  type ProviderErrorKind,
  type StopReason,
  type Usage,
} from "../types.ts";
import { type ReasoningBlock, withReasoningBlocks } from "./state.ts";

const Payload = z.lazy(() =>
  z.object({
    contentBlockIndex: z.number().int().nonnegative().optional(),
    start: z.object({ toolUse: z.object({ toolUseId: z.string(), name: z.string() }).optional() }).optional(),
    delta: z
      .object({
        text: z.string().optional(),
        toolUse: z.object({ input: z.string() }).optional(),
        reasoningContent: z
          .object({
            text: z.string().optional(),
            signature: z.string().optional(),
            redactedContent: z.string().optional(),
          })
          .optional(),
      })
      .optional(),
    stopReason: z.string().optional(),
    usage: z
      .object({
        inputTokens: z.number().optional(),
        outputTokens: z.number().optional(),
        cacheReadInputTokens: z.number().optional(),
        cacheWriteInputTokens: z.number().optional(),
      })
      .optional(),
    message: z.string().optional(),
  }),
);
type Payload = z.infer<typeof Payload>;

const EXCEPTION_KINDS: Record<string, ProviderErrorKind> = {
  throttlingException: "rate_limit",
  serviceUnavailableException: "server",
  internalServerException: "server",
  modelStreamErrorException: "server",
  validationException: "bad_request",
  accessDeniedException: "auth",
};

/** Stop reasons that end a reply without the answer: a guardrail or the content filter stopped it. */
const BLOCKED = new Set(["guardrail_intervened", "content_filtered"]);

export class BedrockDecoder extends ReplyDecoder<ModelResponse> {
  private readonly calls = new Map<number, number>();
  private readonly reasoning = new Map<number, { text: string; signature: string; redacted: string }>();
  private stopRaw: string | undefined;
  private usage: Payload["usage"];

  event(ev: SseEvent): void {
    if (ev.event.startsWith("exception:")) throw this.exception(ev.event.slice(10), ev.data);
    const raw = parseChunk(this.site, ev.data);
    if (ev.event === "contentBlockDelta" && this.plainDelta(raw)) return;
    const parsed = Payload.safeParse(raw);
    if (!parsed.success) throw badStreamData(this.site, "unexpected stream event", ev.data);
    const e = parsed.data;
    const index = e.contentBlockIndex ?? 0;
    switch (ev.event) {
      case "contentBlockStart":
        if (e.start?.toolUse)
          this.calls.set(index, this.reply.startCall(e.start.toolUse.toolUseId, e.start.toolUse.name));
        break;
      case "contentBlockDelta":
        this.delta(index, e.delta);
        break;
      case "contentBlockStop": {
        const pos = this.calls.get(index);
        if (pos !== undefined && this.reply.argumentsOf(pos) === "") this.reply.appendArguments(pos, "{}");
        break;
      }
      case "messageStop":
        this.stopRaw = e.stopReason ?? "end_turn";
        if (BLOCKED.has(this.stopRaw)) {
          throw new ProviderError(
            "bad_request",
            `${this.site.provider} model "${this.site.model}": the reply was stopped (${this.stopRaw}) by a guardrail or the content filter; rephrase the request or check the guardrail`,
            undefined,
            { retryable: false },
          );
        }
        break;
      case "metadata":
        this.usage = e.usage;
        this.done = true;
        break;
    }
  }

  /**
   * Most frames of a reply are a text or tool-input delta: taken here when that is all the frame holds
   * (checked field by field), without the schema's walk over every optional field of every event kind.
   */
  private plainDelta(raw: unknown): boolean {
    const e = raw as { contentBlockIndex?: unknown; delta?: Record<string, unknown> } | null;
    const d = e?.delta;
    const index = e?.contentBlockIndex;
    if (typeof d !== "object" || d === null || !Number.isInteger(index) || (index as number) < 0)
      return false;
    const keys = Object.keys(d);
    if (keys.length !== 1) return false;
    if (typeof d.text === "string") {
      if (d.text) this.reply.text(d.text);
      return true;
    }
    const input = (d.toolUse as { input?: unknown } | undefined)?.input;
    if (typeof input !== "string" || Object.keys(d.toolUse as object).length !== 1) return false;
    const pos = this.calls.get(index as number);
    if (pos !== undefined) this.reply.appendArguments(pos, input);
    return true;
  }

  private delta(index: number, d: Payload["delta"]): void {
    if (!d) return;
    if (d.text) this.reply.text(d.text);
    const pos = this.calls.get(index);
    if (d.toolUse && pos !== undefined) this.reply.appendArguments(pos, d.toolUse.input);
    const r = d.reasoningContent;
    if (r) {
      const block = this.reasoning.get(index) ?? { text: "", signature: "", redacted: "" };
      this.reasoning.set(index, block);
      if (r.text) {
        block.text += r.text;
        this.reply.reasoning(r.text);
      }
      if (r.signature) block.signature += r.signature;
      if (r.redactedContent) block.redacted += r.redactedContent;
    }
  }

  private exception(type: string, data: string): ProviderError {
    let message = data;
    try {
      message = (JSON.parse(data) as { message?: string }).message ?? data;
    } catch {
      // not JSON: quote it as it is
    }
    const overflow = looksLikeContextOverflow(message);
    const kind = overflow ? "context_overflow" : (EXCEPTION_KINDS[type] ?? "server");
    const shown = redact(message.slice(0, 300), this.site.apiKey);
    return new ProviderError(
      kind,
      `${this.site.provider} model "${this.site.model}": ${type} in stream: ${shown}`,
    );
  }

  finish(): ModelResponse {
    if (this.stopRaw === undefined) throw truncatedError(this.site);
    const u = this.usage;
    const read = u?.cacheReadInputTokens ?? 0;
    const write = u?.cacheWriteInputTokens ?? 0;
    const usage: Usage = {
      input_tokens: (u?.inputTokens ?? 0) + read + write,
      output_tokens: u?.outputTokens ?? 0,
    };
    if (read) usage.cache_read_tokens = read;
    if (write) usage.cache_write_tokens = write;
    const blocks: ReasoningBlock[] = [...this.reasoning.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, b]) => (b.redacted ? { redacted: b.redacted } : { text: b.text, signature: b.signature }));
    return {
      message: withReasoningBlocks(this.reply.message(), blocks),
      stop: stopReason(this.stopRaw, this.reply.hasToolCalls),
      ...(u ? { usage } : {}),
    };
  }
}

function stopReason(raw: string, hasToolCalls: boolean): StopReason {
  if (raw === "max_tokens" || raw === "model_context_window_exceeded") return "length";
  if (hasToolCalls) return "tool_calls";
  if (raw === "end_turn" || raw === "stop_sequence") return "end";
  return "other";
}
