// When and how long to wait before sending a failed request again. Exponential backoff with "equal"
// jitter: each wait lies between half and all of a doubling window, so waits grow steadily (full jitter
// made them erratic: 79 ms then 15,640 ms) while clients that failed together still spread out. Every
// single wait is capped, and so is the time spent waiting in total; a server that asks for a wait beyond
// the cap is taken at its word and not retried early.

export interface RetryPolicy {
  /** attempts after the first one; 0 disables retrying */
  maxRetries: number;
  /** the first backoff window; doubles per attempt */
  baseMs: number;
  /** no single wait is ever longer than this; a retry-after above it means giving up */
  maxDelayMs: number;
  /** the waits of one request add up to at most this */
  maxTotalMs: number;
}

/** Waits of 0.5–1, 1–2, 2–4, 4–8 s: under 15 s in all for a host that does not answer. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseMs: 1000,
  maxDelayMs: 30_000,
  maxTotalMs: 60_000,
};

/**
 * A refused connection to this machine means nothing listens on that port: a local server that is not
 * running rarely starts within seconds, so two quick retries (a server that is just starting) and then a
 * clear message beat a long wait.
 */
export const LOCAL_REFUSED_RETRY: RetryPolicy = {
  maxRetries: 2,
  baseMs: 250,
  maxDelayMs: 500,
  maxTotalMs: 2000,
};

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `retry-after` as (possibly fractional)
 * seconds or an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const v = headers.get("retry-after");
  if (v === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The wait a Google API asks for in the error body: a `google.rpc.RetryInfo` detail whose `retryDelay` is
 * a protobuf Duration ("17s", "0.5s"). Gemini and Vertex send it on a 429 instead of a retry-after header.
 */
export function parseRetryInfo(body: string): number | undefined {
  if (!body.includes("RetryInfo")) return undefined; // most error bodies: no JSON parse
  let details: unknown;
  try {
    details = (JSON.parse(body) as { error?: { details?: unknown } }).error?.details;
  } catch {
    return undefined;
  }
  if (!Array.isArray(details)) return undefined;
  for (const d of details as { "@type"?: unknown; retryDelay?: unknown }[]) {
    if (typeof d?.["@type"] !== "string" || !d["@type"].endsWith("google.rpc.RetryInfo")) continue;
    const m = typeof d.retryDelay === "string" ? /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(d.retryDelay) : null;
    if (m) return Math.ceil(Number(m[1]) * 1000);
  }
  return undefined;
}

/** How long to wait before retry number `attempt` (1-based), from the policy alone. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const window = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.floor(window / 2 + random() * (window / 2));
}

/** The next wait, or why there is none: `give_up` is a note for the end of the error message. */
export type RetryDecision = { wait: number } | { give_up: string };

/**
 * Whether to retry after `retries` retries that waited `waitedMs` in all, and after how long: what the
 * server asked (within the cap), else the backoff, never past the total budget.
 */
export function nextRetry(
  retries: number,
  waitedMs: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): RetryDecision {
  const tried = retries === 0 ? "" : `; gave up after ${retries} ${retries === 1 ? "retry" : "retries"}`;
  if (retries >= policy.maxRetries) return { give_up: tried };
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) {
    return {
      give_up: `; the server asks to wait ${seconds(retryAfterMs)}, longer than the ${seconds(policy.maxDelayMs)} retry cap`,
    };
  }
  const wait =
    retryAfterMs !== undefined ? Math.max(0, retryAfterMs) : backoffDelay(retries + 1, policy, random);
  if (waitedMs + wait > policy.maxTotalMs) {
    return {
      give_up: `${tried || "; not retried"} (retry waits are capped at ${seconds(policy.maxTotalMs)} in all)`,
    };
  }
  return { wait };
}

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** How the transport waits between attempts: `sleep`, or a recorder in tests; must reject on abort. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
