// When and how long to wait before sending a failed request again: exponential backoff with full jitter
// (spreads out clients that failed together), or exactly what the server asked for via retry-after.

export interface RetryPolicy {
  /** attempts after the first one; 0 disables retrying */
  maxRetries: number;
  /** the first backoff window; doubles per attempt */
  baseMs: number;
  /** no wait is ever longer than this, retry-after included */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseMs: 1000, maxDelayMs: 30_000 };

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

/** How long to wait before retry number `attempt` (1-based). */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxDelayMs);
  const window = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.floor(random() * window);
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
