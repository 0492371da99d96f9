// One streamed model request over HTTP: POST, check the status, read the SSE body through a wire-format
// decoder, and retry transient failures — but only while nothing has been shown to the caller yet, so a
// retry can never duplicate text or tool calls that were already streamed.
import type { History } from "../contract/history.ts";
import { NO_KEY } from "./credentials.ts";
import { type CallSite, cancelledError, httpError, networkError, redact, streamError } from "./errors.ts";
import { backoffDelay, type RetryPolicy, sleep } from "./retry.ts";
import { readSse, type SseEvent } from "./sse.ts";
import { type ModelRequest, type ModelResponse, ProviderError, type StreamEvent } from "./types.ts";

/** What every provider needs besides the request itself (built by createProvider). */
export interface ProviderSettings {
  apiKey: string;
  baseUrl?: string;
  retry: RetryPolicy;
  fetch: typeof fetch;
  /** extra headers for every request (e.g. OpenRouter's HTTP-Referer) */
  headers: Record<string, string>;
}

/**
 * Turns one wire format's events into StreamEvents and, at the end, its result: the assistant message for
 * formats the core decodes itself, or the raw final reply for a format a module shapes (Responses).
 */
export interface WireDecoder<T = ModelResponse> {
  /** handle one SSE event; throws ProviderError for an error the server reports in the stream */
  event(ev: SseEvent): void;
  /** the terminal event arrived: stop reading */
  readonly done: boolean;
  /** the finished reply; throws when the stream ended before the reply was complete */
  finish(): T;
}

export interface StreamCall<T = ModelResponse> {
  site: CallSite;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  fetch: typeof fetch;
  retry: RetryPolicy;
  signal?: AbortSignal;
  onEvent?: (ev: StreamEvent) => void;
  /** a fresh decoder per attempt */
  decoder: (emit: (ev: StreamEvent) => void) => WireDecoder<T>;
}

/** Where a provider sends its requests, and how: the wire's name for messages, its URL and headers. */
export interface Endpoint {
  provider: CallSite["provider"];
  url: string;
  headers: Record<string, string>;
}

/**
 * The headers of every streamed request: JSON in, an event stream out, the wire's own headers, the
 * credential header when there is a key (none for NO_KEY), then the user's extra headers, which win.
 */
export function streamHeaders(
  settings: ProviderSettings,
  credential: (apiKey: string) => Record<string, string>,
  wire: Record<string, string> = {},
): Record<string, string> {
  const { apiKey } = settings;
  return {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...wire,
    ...(apiKey && apiKey !== NO_KEY ? credential(apiKey) : {}),
    ...settings.headers,
  };
}

type DecoderClass<T> = new (
  site: CallSite,
  history: History,
  emit: (ev: StreamEvent) => void,
) => WireDecoder<T>;

/** One model request of `req` with `body`, streamed through a fresh `Decoder` per attempt. */
export function streamModelRequest<T>(
  settings: ProviderSettings,
  endpoint: Endpoint,
  req: ModelRequest,
  body: unknown,
  onEvent: ((ev: StreamEvent) => void) | undefined,
  Decoder: DecoderClass<T>,
): Promise<T> {
  const site: CallSite = { provider: endpoint.provider, model: req.model, apiKey: settings.apiKey };
  return streamWithRetry({
    site,
    url: endpoint.url,
    headers: endpoint.headers,
    body,
    fetch: settings.fetch,
    retry: settings.retry,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(onEvent ? { onEvent } : {}),
    decoder: (emit) => new Decoder(site, req.messages, emit),
  });
}

/** Wraps an exception thrown by the caller's own onEvent callback, which must reach it unchanged. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

export async function streamWithRetry<T = ModelResponse>(call: StreamCall<T>): Promise<T> {
  const { site, signal, retry } = call;
  const payload = JSON.stringify(call.body);
  for (let attempt = 0; ; attempt++) {
    let emitted = false;
    const emit = (ev: StreamEvent) => {
      emitted = true;
      try {
        call.onEvent?.(ev);
      } catch (err) {
        throw new CallbackFailure(err);
      }
    };
    try {
      return await once(call, payload, emit);
    } catch (caught) {
      if (caught instanceof CallbackFailure) throw caught.error;
      if (signal?.aborted) throw cancelledError(site);
      const err = caught instanceof ProviderError ? caught : networkError(site, caught, "during the request");
      if (!err.retryable || emitted || attempt >= retry.maxRetries) throw err;
      const delay = backoffDelay(attempt + 1, retry, err.retryAfterMs);
      call.onEvent?.({ type: "retry", attempt: attempt + 1, delay_ms: delay, reason: err.message });
      try {
        await sleep(delay, signal);
      } catch {
        throw cancelledError(site);
      }
    }
  }
}

async function once<T>(call: StreamCall<T>, payload: string, emit: (ev: StreamEvent) => void): Promise<T> {
  const { site, signal } = call;
  let res: Response;
  try {
    res = await call.fetch(call.url, {
      method: "POST",
      headers: call.headers,
      body: payload,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw cancelledError(site);
    throw networkError(site, err, `connecting to ${redact(call.url)}`);
  }
  if (!res.ok) {
    const text = await readCapped(res, ERROR_BODY_MAX_BYTES);
    throw httpError(site, res.status, text, res.headers);
  }
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    // A server or proxy that ignored `stream: true`, or a 200 that carries an error object.
    const text = await readCapped(res, ERROR_BODY_MAX_BYTES);
    const err = streamError(site, text);
    throw new ProviderError(err.kind, err.message, res.status, { retryable: false });
  }
  if (!res.body) throw networkError(site, "empty response body", "reading the reply");
  const decoder = call.decoder(emit);
  try {
    for await (const ev of readSse(res.body, signal)) {
      decoder.event(ev);
      if (decoder.done) break;
    }
  } catch (err) {
    if (signal?.aborted) throw cancelledError(site);
    if (err instanceof ProviderError || err instanceof CallbackFailure) throw err;
    throw networkError(site, err, "reading the reply stream");
  }
  return decoder.finish();
}

/** A stream payload the decoder cannot use, quoted (shortened, the key scrubbed) after `what` is wrong. */
export function badStreamData(site: CallSite, what: string, data: string): ProviderError {
  return new ProviderError(
    "server",
    `${site.provider} model "${site.model}": ${what}: ${redact(data.slice(0, 200), site.apiKey)}`,
  );
}

/** Parse one SSE data payload, turning garbage into a classified error instead of a SyntaxError. */
export function parseChunk(site: CallSite, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw badStreamData(site, "malformed stream chunk", data);
  }
}

/** The stream ended without its terminal event (connection cut by a proxy, server crash). */
export function truncatedError(site: CallSite): ProviderError {
  return new ProviderError(
    "network",
    `${site.provider} model "${site.model}": the reply stream ended before the reply was complete`,
  );
}

/** An error body is for a message, not for keeping: a server (or proxy) may send megabytes of HTML. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

/** At most `max` bytes of the body, as text; the rest is not read (the connection is cancelled). */
export async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
  } catch {
    // A body that breaks off still leaves the status to report.
  } finally {
    reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(Math.min(size, max));
  let off = 0;
  for (const p of parts) {
    const take = Math.min(p.length, all.length - off);
    all.set(p.subarray(0, take), off);
    off += take;
    if (off >= all.length) break;
  }
  return new TextDecoder().decode(all);
}
