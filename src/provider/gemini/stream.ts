// Gemini streamGenerateContent (alt=sse) → StreamEvents and the final reply. Each event is a whole
// GenerateContentResponse: candidate parts (text, thought summaries with `thought: true`, functionCall
// parts, each possibly signed), a finishReason on the last one, usageMetadata. There is no terminal event:
// a stream that ends without a finishReason was cut. Blocked prompts and safety stops become clear errors.
import { z } from "zod";
import { streamError } from "../errors.ts";
import { ReplyDecoder } from "../reply-builder.ts";
import type { SseEvent } from "../sse.ts";
import { badStreamData, parseChunk, truncatedError } from "../transport.ts";
import { type ModelResponse, ProviderError, type StopReason, type Usage } from "../types.ts";
import { type GeminiState, withGeminiState } from "./state.ts";

const Part = z.object({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z
    .object({ id: z.string().nullish(), name: z.string().nullish(), args: z.unknown() })
    .nullish(),
});

const UsageMetadata = z.object({
  promptTokenCount: z.number().nullish(),
  candidatesTokenCount: z.number().nullish(),
  cachedContentTokenCount: z.number().nullish(),
  thoughtsTokenCount: z.number().nullish(),
  toolUsePromptTokenCount: z.number().nullish(),
});

export const GeminiChunk = z.lazy(() =>
  z.object({
    candidates: z
      .array(
        z.object({
          content: z.object({ parts: z.array(Part).nullish() }).nullish(),
          finishReason: z.string().nullish(),
          finishMessage: z.string().nullish(),
        }),
      )
      .nullish(),
    promptFeedback: z
      .object({ blockReason: z.string().nullish(), blockReasonMessage: z.string().nullish() })
      .nullish(),
    usageMetadata: UsageMetadata.nullish(),
  }),
);

/** finishReasons that end a reply without the answer: the provider stopped it, a person must act. */
const BLOCKED = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "LANGUAGE",
]);

export class GeminiDecoder extends ReplyDecoder<ModelResponse> {
  private finish_: string | undefined;
  private usage: z.infer<typeof UsageMetadata> | undefined;
  private readonly state: GeminiState = {};

  event(ev: SseEvent): void {
    const raw = parseChunk(this.site, ev.data);
    if (raw && typeof raw === "object" && "error" in raw) throw streamError(this.site, ev.data);
    const parsed = GeminiChunk.safeParse(raw);
    if (!parsed.success) throw badStreamData(this.site, "unexpected stream event", ev.data);
    const chunk = parsed.data;
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked)
      throw this.blockedError(
        `the prompt was blocked (${blocked})`,
        chunk.promptFeedback?.blockReasonMessage,
      );
    const cand = chunk.candidates?.[0];
    for (const part of cand?.content?.parts ?? []) this.part(part);
    if (cand?.finishReason) {
      this.finish_ = cand.finishReason;
      if (BLOCKED.has(cand.finishReason))
        throw this.blockedError(`the reply was stopped (${cand.finishReason})`, cand.finishMessage);
      if (cand.finishReason === "MALFORMED_FUNCTION_CALL" || cand.finishReason === "UNEXPECTED_TOOL_CALL")
        throw new ProviderError(
          "server",
          `${this.site.provider} model "${this.site.model}": the model produced an unusable function call (${cand.finishReason}); trying again`,
        );
    }
  }

  private part(p: z.infer<typeof Part>): void {
    if (p.functionCall) {
      const pos = this.reply.startCall(p.functionCall.id, p.functionCall.name);
      this.reply.appendArguments(pos, JSON.stringify(p.functionCall.args ?? {}));
      if (p.thoughtSignature) {
        const id = this.reply.idOf(pos);
        if (id) this.state.calls = { ...this.state.calls, [id]: p.thoughtSignature };
      }
      return;
    }
    if (p.thought) {
      if (p.text) this.reply.reasoning(p.text);
    } else if (p.text) this.reply.text(p.text);
    if (p.thoughtSignature && !p.thought) this.state.text = p.thoughtSignature;
  }

  private blockedError(what: string, detail: string | null | undefined): ProviderError {
    const why = detail ? `: ${detail}` : "";
    return new ProviderError(
      "bad_request",
      `${this.site.provider} model "${this.site.model}": ${what} by the provider's safety filters${why}; rephrase the request or change the content`,
      undefined,
      { retryable: false },
    );
  }

  finish(): ModelResponse {
    if (this.finish_ === undefined) throw truncatedError(this.site);
    const u = this.usage;
    const cached = u?.cachedContentTokenCount ?? 0;
    const usage: Usage = {
      input_tokens: (u?.promptTokenCount ?? 0) + (u?.toolUsePromptTokenCount ?? 0),
      // Thinking is billed as output.
      output_tokens: (u?.candidatesTokenCount ?? 0) + (u?.thoughtsTokenCount ?? 0),
    };
    if (cached) usage.cache_read_tokens = cached;
    return {
      message: withGeminiState(this.reply.message(), this.state),
      stop: stopReason(this.finish_, this.reply.hasToolCalls),
      ...(u ? { usage } : {}),
    };
  }
}

function stopReason(raw: string, hasToolCalls: boolean): StopReason {
  if (raw === "MAX_TOKENS") return "length";
  if (hasToolCalls) return "tool_calls";
  if (raw === "STOP") return "end";
  return "other";
}
