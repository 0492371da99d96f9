// Collects one streamed assistant reply — text and tool calls — emitting StreamEvents as pieces arrive,
// and produces the final message with every tool call carrying a unique id, so the core can pair each
// call with exactly one tool result. Arguments stay the model's raw text, even when empty or invalid JSON.
import type { History, Message, ToolCall } from "../contract/history.ts";
import { ToolIdAllocator } from "../lib/tool-ids.ts";
import type { CallSite } from "./errors.ts";
import type { SseEvent } from "./sse.ts";
import type { WireDecoder } from "./transport.ts";
import type { StreamEvent } from "./types.ts";

/** A tool call whose name never arrived still needs a name to be answered (with an unknown-tool error). */
export const MISSING_TOOL_NAME = "missing_tool_name";

export class ReplyBuilder {
  private readonly ids: ToolIdAllocator;
  private textOut = "";
  private reasoningOut = "";
  private readonly calls: ToolCall[] = [];

  constructor(
    history: History,
    private readonly emit: (ev: StreamEvent) => void,
  ) {
    this.ids = new ToolIdAllocator(history);
  }

  /** Reasoning text: shown as it streams and kept with the message's meta, never in its content. */
  reasoning(delta: string): void {
    if (!delta) return;
    this.reasoningOut += delta;
    this.emit({ type: "reasoning_delta", text: delta });
  }

  text(delta: string): void {
    if (!delta) return;
    this.textOut += delta;
    this.emit({ type: "text_delta", text: delta });
  }

  /** Announce a new tool call; returns its position for appendArguments. */
  startCall(rawId: string | undefined | null, name: string | undefined | null): number {
    const call: ToolCall = { id: this.ids.claim(rawId), name: name || MISSING_TOOL_NAME, arguments: "" };
    this.calls.push(call);
    this.emit({ type: "tool_call", id: call.id, name: call.name });
    return this.calls.length - 1;
  }

  appendArguments(position: number, delta: string): void {
    const call = this.calls[position];
    if (!call || !delta) return;
    call.arguments += delta;
    this.emit({ type: "tool_call_delta", id: call.id, arguments: delta });
  }

  /** The id the call at `position` was given (after repair). */
  idOf(position: number): string | undefined {
    return this.calls[position]?.id;
  }

  argumentsOf(position: number): string {
    return this.calls[position]?.arguments ?? "";
  }

  get hasToolCalls(): boolean {
    return this.calls.length > 0;
  }

  message(): Message {
    const msg: Message = { role: "assistant", content: this.textOut };
    if (this.calls.length > 0) msg.tool_calls = this.calls.map((c) => ({ ...c }));
    if (this.reasoningOut !== "") msg.meta = { reasoning: this.reasoningOut };
    return msg;
  }
}

/** What every wire's decoder shares: who was asked (for error messages) and the reply being built. */
export abstract class ReplyDecoder<T> implements WireDecoder<T> {
  done = false;
  protected readonly reply: ReplyBuilder;

  constructor(
    protected readonly site: CallSite,
    history: History,
    emit: (ev: StreamEvent) => void,
  ) {
    this.reply = new ReplyBuilder(history, emit);
  }

  abstract event(ev: SseEvent): void;
  abstract finish(): T;
}
