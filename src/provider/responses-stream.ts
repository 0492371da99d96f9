// OpenAI Responses stream → StreamEvents while it arrives, and at the end the final `response` object, which
// the responses module turns into the assistant message (wire_response). Text arrives as
// response.output_text.delta; a function call is announced by response.output_item.added and its
// arguments follow as response.function_call_arguments.delta, keyed by output_index. The terminal event is
// response.completed or response.incomplete (which carry the whole response); response.failed and `error`
// report failures. Events we do not use (reasoning summaries, content_part.*, future additions) are ignored.
import { z } from "zod";
import { streamError } from "./errors.ts";
import { ReplyDecoder } from "./reply-builder.ts";
import type { SseEvent } from "./sse.ts";
import { badStreamData, parseChunk, truncatedError } from "./transport.ts";

/** An output item as the stream shows it; only the fields a function call needs are read. */
const StreamItem = z.lazy(() =>
  z.looseObject({
    type: z.string(),
    id: z.string().nullish(),
    call_id: z.string().nullish(),
    name: z.string().nullish(),
    arguments: z.string().nullish(),
  }),
);
const ResponseObject = z.looseObject({ output: z.array(z.unknown()).nullish() });

const TextDelta = z.looseObject({ delta: z.string() });
const ItemEvent = z.lazy(() =>
  z.looseObject({
    output_index: z.number().int().nonnegative().optional(),
    item: StreamItem,
  }),
);
const ArgumentsDelta = z.lazy(() =>
  z.looseObject({
    output_index: z.number().int().nonnegative().optional(),
    item_id: z.string().optional(),
    delta: z.string(),
  }),
);
const ArgumentsDone = z.lazy(() =>
  z.looseObject({
    output_index: z.number().int().nonnegative().optional(),
    item_id: z.string().optional(),
    arguments: z.string(),
  }),
);
const Terminal = z.looseObject({ response: ResponseObject });
const Failed = z.lazy(() =>
  z.looseObject({ response: z.looseObject({ error: z.unknown().optional() }).optional() }),
);

/** What the stream yields: the final response object, handed to the wire_response hook. */
export interface ResponsesStreamResult {
  response: Record<string, unknown>;
}

interface OpenCall {
  position: number;
  /** whether any argument text arrived (a call without parameters may carry it only in the item) */
  hasArguments: boolean;
}

export class ResponsesDecoder extends ReplyDecoder<ResponsesStreamResult> {
  /** function calls by output_index */
  private readonly calls = new Map<number, OpenCall>();
  private readonly indexByItemId = new Map<string, number>();
  /** finished output items by output_index, in case the terminal event leaves `output` out */
  private readonly finished = new Map<number, unknown>();
  private response: z.infer<typeof ResponseObject> | undefined;

  event(ev: SseEvent): void {
    const data = ev.data.trim();
    if (!data || data === "[DONE]") return;
    const raw = parseChunk(this.site, data);
    const type = (raw as { type?: unknown } | null)?.type;
    if (typeof type !== "string") throw badStreamData(this.site, "unexpected stream event", data);
    switch (type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        this.reply.text(this.parse(TextDelta, raw, data).delta);
        break;
      case "response.reasoning_summary_text.delta":
        this.reply.reasoning(this.parse(TextDelta, raw, data).delta);
        break;
      case "response.output_item.added": {
        const e = this.parse(ItemEvent, raw, data);
        if (e.item.type === "function_call") this.openCall(e.output_index ?? this.calls.size, e.item);
        break;
      }
      case "response.function_call_arguments.delta": {
        const e = this.parse(ArgumentsDelta, raw, data);
        const call = this.callFor(e.output_index, e.item_id);
        if (call && e.delta) {
          call.hasArguments = true;
          this.reply.appendArguments(call.position, e.delta);
        }
        break;
      }
      case "response.function_call_arguments.done": {
        const e = this.parse(ArgumentsDone, raw, data);
        this.fillArguments(this.callFor(e.output_index, e.item_id), e.arguments);
        break;
      }
      case "response.output_item.done": {
        const e = this.parse(ItemEvent, raw, data);
        const index = e.output_index ?? this.finished.size;
        this.finished.set(index, e.item);
        if (e.item.type === "function_call") {
          if (!this.calls.has(index)) this.openCall(index, e.item);
          this.fillArguments(this.calls.get(index), e.item.arguments ?? "");
        }
        break;
      }
      case "response.completed":
      case "response.incomplete":
        this.response = this.parse(Terminal, raw, data).response;
        this.done = true;
        break;
      case "response.failed": {
        const e = this.parse(Failed, raw, data);
        // The error object alone, so the classifier and the message see the server's code and wording.
        const error = e.response?.error ?? { message: "the response failed without an error message" };
        throw streamError(this.site, JSON.stringify({ error }));
      }
      case "error":
        throw streamError(this.site, data);
    }
  }

  private openCall(index: number, item: z.infer<typeof StreamItem>): void {
    if (this.calls.has(index)) return;
    const position = this.reply.startCall(item.call_id, item.name);
    this.calls.set(index, { position, hasArguments: false });
    if (item.id) this.indexByItemId.set(item.id, index);
    if (item.arguments) this.fillArguments(this.calls.get(index), item.arguments);
  }

  private callFor(index: number | undefined, itemId: string | undefined): OpenCall | undefined {
    const i = index ?? (itemId !== undefined ? this.indexByItemId.get(itemId) : undefined);
    return i === undefined ? undefined : this.calls.get(i);
  }

  /** The complete argument text, used only when no delta carried it. */
  private fillArguments(call: OpenCall | undefined, text: string): void {
    if (!call || call.hasArguments || !text) return;
    call.hasArguments = true;
    this.reply.appendArguments(call.position, text);
  }

  finish(): ResponsesStreamResult {
    if (!this.response) throw truncatedError(this.site);
    const response: Record<string, unknown> = { ...this.response };
    // Some compatible servers send the terminal event without the output; the items streamed are the same.
    const output = this.response.output;
    if ((!output || output.length === 0) && this.finished.size > 0) {
      response.output = [...this.finished.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
    }
    return { response };
  }

  private parse<S extends z.ZodType>(schema: S, raw: unknown, data: string): z.infer<S> {
    const r = schema.safeParse(raw);
    if (!r.success) throw badStreamData(this.site, "unexpected stream event", data);
    return r.data;
  }
}
