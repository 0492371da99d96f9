// What a provider (wire format) offers the agent core. Providers own transport, credentials and retries.
import type { ProviderName } from "../contract/config.ts";
import type { History, Message } from "../contract/history.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import type { StopReason, Usage } from "../contract/usage.ts";

export type { StopReason, Usage };

export interface ModelRequest {
  model: string;
  /** history[0] is the system message */
  messages: History;
  tools: ToolDecl[];
  max_output_tokens?: number;
  /** Anthropic extended thinking's budget in tokens; absent: thinking off (other wires ignore it) */
  thinking_budget?: number;
  signal?: AbortSignal;
  /** provider-specific hints from `before_request` (e.g. cache breakpoints); unknown keys are ignored */
  hints?: Record<string, unknown>;
}

export type StreamEvent =
  | { type: "text_delta"; text: string }
  /** the model's reasoning as it streams (reasoning_content, a Responses reasoning summary): shown, never
   * part of the answer's text */
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; arguments: string }
  | {
      type: "retry";
      attempt: number;
      delay_ms: number;
      reason: string;
      /** the failed attempt had already streamed text; it is discarded and the reply starts over */
      discarded?: boolean;
    };

export interface ModelResponse {
  /** the assistant message, tool calls paired with ids */
  message: Message;
  usage?: Usage;
  stop: StopReason;
}

export type ProviderErrorKind =
  | "auth"
  | "not_found"
  | "bad_request"
  | "context_overflow"
  | "rate_limit"
  | "server"
  | "network"
  | "cancelled";

/** Kinds worth another attempt: the same request may succeed a little later. */
const TRANSIENT_KINDS: ReadonlySet<ProviderErrorKind> = new Set(["rate_limit", "server", "network"]);

export interface ProviderErrorOptions {
  /** the server asked us to wait this long before trying again (retry-after) */
  retryAfterMs?: number;
  /** override the kind's default (e.g. a 429 for an exhausted quota will not clear by waiting) */
  retryable?: boolean;
  /** the stream went silent for the idle timeout (retried once, not like other network errors) */
  idle?: boolean;
  /** a connection to this machine was refused: nothing listens there, so retrying long is pointless */
  localRefused?: boolean;
}

/** A provider failure, classified so the agent can react (overflow → compaction recovery). */
export class ProviderError extends Error {
  /** whether sending the same request again may succeed */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly idle: boolean;
  readonly localRefused: boolean;
  /**
   * Text the failed (or cancelled) attempt had streamed before it ended: never committed by the transport,
   * kept by the agent so what the user saw is not lost.
   */
  partialText = "";
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    options: ProviderErrorOptions = {},
  ) {
    super(message);
    this.name = "ProviderError";
    this.retryable = options.retryable ?? TRANSIENT_KINDS.has(kind);
    this.idle = options.idle ?? false;
    this.localRefused = options.localRefused ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export interface Provider {
  readonly name: ProviderName;
  /** stream one model reply; resolves when the reply is complete, rejects with ProviderError */
  stream(req: ModelRequest, onEvent?: (ev: StreamEvent) => void): Promise<ModelResponse>;
}
