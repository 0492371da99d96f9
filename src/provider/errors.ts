// Turning a failed HTTP exchange into a classified ProviderError whose message a person can act on:
// provider, model, HTTP status and the server's own explanation — with the API key scrubbed out.

import { redactKeyShapes } from "../config/key-shapes.ts";
import type { ProviderName } from "../contract/config.ts";
import { errorMessage } from "../contract/errors.ts";
import { fixFor, kindFromWording } from "./error-hints.ts";
import { isOverloaded } from "./error-phrases.ts";
import { parseRetryAfter, parseRetryInfo } from "./retry.ts";
import { ProviderError, type ProviderErrorKind } from "./types.ts";

/** Who was asked what; every message names them. */
export interface CallSite {
  provider: ProviderName;
  model: string;
  /** scrubbed from any text we repeat (some servers echo the key they were given) */
  apiKey?: string;
}

/**
 * How servers say "the prompt does not fit": OpenAI and OpenRouter, Anthropic, llama.cpp, vLLM, Ollama,
 * LM Studio and a few generic phrasings. Matched case-insensitively against the error body.
 */
const OVERFLOW_PATTERNS: RegExp[] = [
  /context_length_exceeded/, // OpenAI error code
  /maximum context length/, // OpenAI, OpenRouter, vLLM
  /reduce the length of the (messages|prompt|input)/,
  /prompt is too long/, // Anthropic
  /input length and `?max_tokens`? exceed context limit/, // Anthropic (input + reserved output)
  /exceeds? the (available )?context (size|length|window)/, // llama.cpp, Ollama
  /exceed_context_size_error/, // llama.cpp error type
  /context (length|window|size) (is )?exceeded/,
  /exceeded (the )?(max(imum)? )?context (length|window)/,
  /longer than the maximum model length/, // vLLM
  /too long to fit into the model/, // vLLM
  /context.{0,20}overflows?/, // LM Studio ("when context the overflows"), generic
  /input is too large to process/, // llama.cpp (batch)
  /(input|prompt) tokens? (count )?exceeds?/, // "input tokens exceed the configured limit", Gemini-style
  /input token count.{0,30}exceeds the maximum/, // Gemini, Vertex
  /input is too long for requested model/, // Bedrock
  /too many input tokens|input length.{0,40}exceeds/, // Bedrock (Converse), Mistral
  /too many (input )?tokens/,
  /request_too_large|request (entity )?too large/, // Anthropic 413 and proxies
];

export function looksLikeContextOverflow(text: string): boolean {
  const lower = text.toLowerCase();
  return OVERFLOW_PATTERNS.some((re) => re.test(lower));
}

export function redact(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("[redacted]");
  // Known key shapes too, even when they are not the key we sent (a proxy may echo another).
  return redactKeyShapes(out);
}

/**
 * The most useful line from an error body: JSON `error.message`, `error`, `message`, `detail`, or text,
 * redacted (the key we sent, and known key shapes) BEFORE it is shortened: cutting first could split a
 * key so that neither redaction recognises the part left in.
 */
export function errorBodyMessage(body: string, apiKey?: string): string {
  let msg = body;
  try {
    msg = pickMessage(JSON.parse(body)) ?? body;
  } catch {
    // not JSON: an HTML error page or plain text; use it as is
  }
  msg = msg
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  msg = redact(msg, apiKey);
  return msg.length > 500 ? `${msg.slice(0, 500)}…` : msg;
}

function pickMessage(json: unknown): string | undefined {
  if (typeof json === "string") return json;
  if (!json || typeof json !== "object") return undefined;
  const o = json as Record<string, unknown>;
  for (const key of ["error", "message", "detail"]) {
    const v = o[key];
    if (typeof v === "string" && v) return v;
    if (v && typeof v === "object") {
      const inner = pickMessage(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The machine-readable error code/type if the body has one (e.g. insufficient_quota). */
function errorCode(body: string): string {
  try {
    const err = (JSON.parse(body) as { error?: { code?: unknown; type?: unknown } }).error;
    return `${String(err?.code ?? "")} ${String(err?.type ?? "")}`;
  } catch {
    return "";
  }
}

function kindForStatus(status: number, body: string): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  const worded = kindFromWording(body);
  if (worded) return worded;
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limit";
  if (status === 408) return "network";
  // Some servers answer an oversized prompt with a 5xx; waiting will not make it fit.
  if (looksLikeContextOverflow(body)) return "context_overflow";
  if (status >= 500) return "server";
  return "bad_request";
}

/**
 * A ProviderError for a non-2xx response. Response headers supply the wait the server asks for and its
 * `x-should-retry: false` veto (sent by the OpenAI and Anthropic APIs, and by our mock server when its
 * script has run out, so a test fails at once instead of backing off).
 */
export function httpError(site: CallSite, status: number, body: string, headers?: Headers): ProviderError {
  // A retry-after header first; Google's APIs put the wait in the body's RetryInfo instead.
  const retryAfterMs = (headers ? parseRetryAfter(headers) : undefined) ?? parseRetryInfo(body);
  const kind = kindForStatus(status, body);
  let detail = errorBodyMessage(body, site.apiKey) || "(empty response body)";
  const fix = fixFor(kind, site.provider, body, isOverloaded(status, body));
  if (fix) detail = detail.replace(/[.\s]+$/, "");
  const message = `${site.provider} model "${site.model}": HTTP ${status}: ${detail}${fix ? `; ${fix}` : ""}`;
  // An exhausted quota or billing problem comes back as 429 but will not clear by waiting.
  const quota = kind === "rate_limit" && /insufficient_quota|billing/.test(errorCode(body));
  const retryable = quota || headers?.get("x-should-retry") === "false" ? false : undefined;
  return new ProviderError(kind, message, status, {
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
  });
}

/** An error the server reported inside an already-open stream (OpenRouter chunks, Anthropic `error`). */
export function streamError(site: CallSite, payload: string): ProviderError {
  const detail = errorBodyMessage(payload, site.apiKey) || "unknown error";
  const lower = payload.toLowerCase();
  let kind: ProviderErrorKind = "server";
  if (/rate_limit/.test(lower)) kind = "rate_limit";
  else if (looksLikeContextOverflow(lower)) kind = "context_overflow";
  else if (/invalid_request/.test(lower)) kind = "bad_request";
  else if (/authentication|permission/.test(lower)) kind = "auth";
  const fix = fixFor(kind, site.provider, payload, isOverloaded(undefined, lower));
  return new ProviderError(
    kind,
    `${site.provider} model "${site.model}": error in stream: ${detail}${fix ? `; ${fix}` : ""}`,
  );
}

export function networkError(site: CallSite, err: unknown, during: string): ProviderError {
  return new ProviderError(
    "network",
    `${site.provider} model "${site.model}": network error ${during}: ${redact(errorMessage(err), site.apiKey)}`,
  );
}

/** Bun and Node put the code on the error or its cause; Deno names the cause's class ConnectionRefused. */
function isConnectionRefused(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const o = e as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (o.code === "ECONNREFUSED" || o.name === "ConnectionRefused") return true;
    if (typeof o.message === "string" && /ECONNREFUSED|connection refused/i.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}

/** localhost, *.localhost, 127.0.0.0/8, ::1 and 0.0.0.0 (which connects to this machine). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "[::1]" ||
    host === "0.0.0.0"
  );
}

/**
 * A request that never reached a server. A refused connection says so in words (the runtimes' own text,
 * e.g. Bun's "Is the computer able to access the url?", is vaguer). On this machine it is marked, so the
 * transport gives up quickly and asks whether the server runs: that is nearly always the reason.
 */
export function connectError(site: CallSite, url: string, err: unknown): ProviderError {
  const shown = redact(url, site.apiKey);
  if (!isConnectionRefused(err)) return networkError(site, err, `connecting to ${shown}`);
  return new ProviderError(
    "network",
    `${site.provider} model "${site.model}": cannot connect to ${shown}: connection refused`,
    undefined,
    { localRefused: isLoopbackUrl(url) },
  );
}

export function cancelledError(site: CallSite): ProviderError {
  return new ProviderError("cancelled", `${site.provider} model "${site.model}": request cancelled`);
}
