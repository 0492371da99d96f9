// One streamed model request over HTTP: POST, check the status, read the SSE body through a wire-format
// decoder, and retry transient failures — but only while nothing has been shown to the caller yet, so a
// retry can never duplicate text or tool calls that were already streamed.

import type { History } from "../contract/history.ts";
import { log, logOn } from "../lib/log.ts";
import { readCappedBody } from "../lib/read-capped.ts";
import { NO_KEY } from "./credentials.ts";
import {
  type CallSite,
  cancelledError,
  connectError,
  httpError,
  networkError,
  redact,
  streamError,
} from "./errors.ts";
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, idleError, watchIdle } from "./idle.ts";
import { LOCAL_REFUSED_RETRY, nextRetry, type RetryPolicy, type Sleep, sleep } from "./retry.ts";
import { readSse, type SseEvent } from "./sse.ts";
import { type ModelRequest, type ModelResponse, ProviderError, type StreamEvent } from "./types.ts";

/** What every provider needs besides the request itself (built by createProvider). */
export interface ProviderSettings {
  apiKey: string;
  baseUrl?: string;
  retry: RetryPolicy;
  /** give up on an attempt that receives nothing for this long (retried once) */
  idleTimeoutMs: number;
  fetch: typeof fetch;
  /** how to wait between attempts (tests record the waits instead of sleeping) */
  sleep?: Sleep;
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

/**
 * A request body already serialised: exactly the UTF-8 of JSON.stringify of the body it stands for. Made
 * again right before each attempt's fetch, which copies it, so `make` may return a view of a buffer that
 * changes later.
 */
export class JsonBytes {
  constructor(readonly make: () => Uint8Array<ArrayBuffer>) {}
}

export interface StreamCall<T = ModelResponse> {
  site: CallSite;
  url: string;
  headers: Record<string, string>;
  /** sent as JSON.stringify(body), or as made when it is JsonBytes */
  body: unknown;
  fetch: typeof fetch;
  retry: RetryPolicy;
  /** default: a real timer */
  sleep?: Sleep;
  /** default DEFAULT_STREAM_IDLE_TIMEOUT_MS */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  onEvent?: (ev: StreamEvent) => void;
  /** a fresh decoder per attempt */
  decoder: (emit: (ev: StreamEvent) => void) => WireDecoder<T>;
  /** per-attempt credential headers made from the exact body sent (SigV4, a refreshed access token) */
  authorize?: Authorize;
  /** how the body is cut into events (default: SSE; Bedrock: AWS event-stream frames) */
  reader?: EventReader;
}

/** Headers that depend on the request's bytes or on the time: made right before each attempt's fetch. */
export type Authorize = (url: string, body: string | Uint8Array) => Promise<Record<string, string>>;

/** Reads a reply body as events, touching the idle watchdog as bytes arrive. */
export type EventReader = (
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  touch: () => void,
) => AsyncIterable<SseEvent>;

/** Where a provider sends its requests, and how: the wire's name for messages, its URL and headers. */
export interface Endpoint {
  provider: CallSite["provider"];
  url: string;
  headers: Record<string, string>;
  authorize?: Authorize;
  reader?: EventReader;
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
    ...(settings.sleep ? { sleep: settings.sleep } : {}),
    idleTimeoutMs: settings.idleTimeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(onEvent ? { onEvent } : {}),
    decoder: (emit) => new Decoder(site, req.messages, emit),
    ...(endpoint.authorize ? { authorize: endpoint.authorize } : {}),
    ...(endpoint.reader ? { reader: endpoint.reader } : {}),
  });
}

/** Wraps an exception thrown by the caller's own onEvent callback, which must reach it unchanged. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

/**
 * Nothing is committed until a reply is complete, so a transient failure is retried even after text was
 * streamed (the retry event says the partial text is discarded). A stalled stream is retried once, whatever
 * the retry policy says of other failures; the final error carries the partial text of the last attempt.
 */
export async function streamWithRetry<T = ModelResponse>(call: StreamCall<T>): Promise<T> {
  const { site, signal, retry } = call;
  const idleMs = call.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const payload = call.body instanceof JsonBytes ? call.body : JSON.stringify(call.body);
  const wait = call.sleep ?? sleep;
  let retries = 0;
  let waited = 0;
  let idleRetried = false;
  for (let attempt = 1; ; attempt++) {
    let partial = "";
    const emit = (ev: StreamEvent) => {
      if (ev.type === "text_delta") partial += ev.text;
      try {
        call.onEvent?.(ev);
      } catch (err) {
        throw new CallbackFailure(err);
      }
    };
    try {
      return await once(call, payload, emit, idleMs);
    } catch (caught) {
      if (caught instanceof CallbackFailure) throw caught.error;
      const err = signal?.aborted
        ? cancelledError(site)
        : caught instanceof ProviderError
          ? caught
          : networkError(site, caught, "during the request");
      err.partialText = partial;
      if (err.kind === "cancelled") throw err;
      let delay = 0;
      if (err.idle) {
        if (idleRetried) throw withNote(err, "; gave up after one retry", partial);
        idleRetried = true;
      } else {
        if (!err.retryable) throw err;
        // The stricter of the user's policy and the local one, so a refused local server fails in seconds.
        const policy = err.localRefused ? stricter(retry, LOCAL_REFUSED_RETRY) : retry;
        const next = nextRetry(retries, waited, policy, err.retryAfterMs);
        if ("give_up" in next) {
          const ask = err.localRefused ? "; is the server running?" : "";
          throw withNote(err, `${next.give_up}${ask}`, partial);
        }
        delay = next.wait;
        retries++;
        waited += delay;
      }
      if (logOn()) log("debug", "retry", `attempt ${attempt} in ${delay} ms: ${err.message}`);
      call.onEvent?.({
        type: "retry",
        attempt,
        delay_ms: delay,
        reason: err.message,
        ...(partial !== "" ? { discarded: true } : {}),
      });
      try {
        await wait(delay, signal);
      } catch {
        throw cancelledError(site);
      }
    }
  }
}

function stricter(a: RetryPolicy, b: RetryPolicy): RetryPolicy {
  return {
    maxRetries: Math.min(a.maxRetries, b.maxRetries),
    baseMs: Math.min(a.baseMs, b.baseMs),
    maxDelayMs: Math.min(a.maxDelayMs, b.maxDelayMs),
    maxTotalMs: Math.min(a.maxTotalMs, b.maxTotalMs),
  };
}

function withNote(err: ProviderError, note: string, partial: string): ProviderError {
  if (note === "") return err;
  const out = new ProviderError(err.kind, `${err.message}${note}`, err.status, {
    retryable: false,
    idle: err.idle,
    localRefused: err.localRefused,
    ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
  });
  out.partialText = partial;
  return out;
}

async function once<T>(
  call: StreamCall<T>,
  payload: string | JsonBytes,
  emit: (ev: StreamEvent) => void,
  idleMs: number,
): Promise<T> {
  const { site, signal } = call;
  const idle = watchIdle(idleMs, signal);
  // Why an attempt ended early: the user, the idle watchdog, or the network.
  const failure = (err: unknown, during: string) => {
    if (signal?.aborted) return cancelledError(site);
    if (idle.fired) return idleError(site, idleMs);
    if (err instanceof ProviderError || err instanceof CallbackFailure) return err;
    return networkError(site, err, during);
  };
  try {
    let res: Response;
    const body = typeof payload === "string" ? payload : payload.make();
    const headers = call.authorize
      ? { ...call.headers, ...(await call.authorize(call.url, body)) }
      : call.headers;
    try {
      res = await call.fetch(call.url, { method: "POST", headers, body, signal: idle.signal });
    } catch (err) {
      throw signal?.aborted || idle.fired ? failure(err, "connecting") : connectError(site, call.url, err);
    }
    idle.touch();
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
      for await (const ev of (call.reader ?? readSse)(res.body, idle.signal, idle.touch)) {
        decoder.event(ev);
        if (decoder.done) break;
      }
    } catch (err) {
      throw failure(err, "reading the reply stream");
    }
    return decoder.finish();
  } finally {
    idle.stop();
  }
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

/** At most `max` bytes of the body, as text; the rest is not read. A body that breaks off still leaves the
 * status (and what arrived) to report. */
export async function readCapped(res: Response, max: number): Promise<string> {
  return new TextDecoder().decode((await readCappedBody(res, max, true)).bytes);
}
