import { describe, expect, test } from "bun:test";
import {
  backoffDelay,
  DEFAULT_RETRY,
  LOCAL_REFUSED_RETRY,
  nextRetry,
  parseRetryAfter,
  type RetryPolicy,
  sleep,
} from "../../src/provider/retry.ts";

const policy: RetryPolicy = { maxRetries: 5, baseMs: 100, maxDelayMs: 1000, maxTotalMs: 60_000 };

describe("parseRetryAfter", () => {
  const h = (init: Record<string, string>) => new Headers(init);

  test("reads whole and fractional seconds", () => {
    expect(parseRetryAfter(h({ "retry-after": "3" }))).toBe(3000);
    expect(parseRetryAfter(h({ "retry-after": "0.25" }))).toBe(250);
  });

  test("reads an HTTP date relative to now, never negative", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfter(h({ "retry-after": "Wed, 21 Oct 2015 07:28:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(h({ "retry-after": "Wed, 21 Oct 2015 07:27:00 GMT" }), now)).toBe(0);
  });

  test("prefers retry-after-ms when present", () => {
    expect(parseRetryAfter(h({ "retry-after-ms": "120", "retry-after": "5" }))).toBe(120);
  });

  test("is undefined when absent or unreadable", () => {
    expect(parseRetryAfter(h({}))).toBeUndefined();
    expect(parseRetryAfter(h({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  test("equal jitter: between half and all of the doubling window", () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(300);
  });

  test("the window never exceeds the cap", () => {
    expect(backoffDelay(20, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(20, policy, () => 0)).toBe(500);
  });

  test("the default policy: four waits that grow, under 15 s in all", () => {
    for (const r of [0, 0.5, 0.999]) {
      const waits = [1, 2, 3, 4].map((n) => backoffDelay(n, DEFAULT_RETRY, () => r));
      for (let i = 1; i < waits.length; i++)
        expect(waits[i] as number).toBeGreaterThanOrEqual(waits[i - 1] as number);
      expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(15_000);
    }
    expect(DEFAULT_RETRY.maxRetries).toBe(4);
  });
});

describe("nextRetry", () => {
  test("retry-after within the cap is honoured exactly", () => {
    expect(nextRetry(0, 0, policy, 700, () => 0)).toEqual({ wait: 700 });
    expect(nextRetry(0, 0, policy, 1000, () => 0)).toEqual({ wait: 1000 });
  });

  test("a retry-after beyond the cap is not waited for, and the note says why", () => {
    expect(nextRetry(0, 0, policy, 3_600_000)).toEqual({
      give_up: "; the server asks to wait 3600 s, longer than the 1 s retry cap",
    });
  });

  test("stops after maxRetries, saying how many", () => {
    expect(nextRetry(5, 0, policy)).toEqual({ give_up: "; gave up after 5 retries" });
    expect(nextRetry(0, 0, { ...policy, maxRetries: 0 })).toEqual({ give_up: "" });
  });

  test("never waits past the total budget", () => {
    const tight = { ...policy, maxTotalMs: 1500 };
    expect(nextRetry(1, 900, tight, 500)).toEqual({ wait: 500 });
    expect(nextRetry(2, 1400, tight, 500)).toEqual({
      give_up: "; gave up after 2 retries (retry waits are capped at 1.5 s in all)",
    });
  });

  test("a refused local server: at most 2 s of waiting", () => {
    let total = 0;
    for (let n = 1; n <= LOCAL_REFUSED_RETRY.maxRetries; n++)
      total += backoffDelay(n, LOCAL_REFUSED_RETRY, () => 0.999);
    expect(total).toBeLessThanOrEqual(2000);
    expect(LOCAL_REFUSED_RETRY.maxTotalMs).toBeLessThanOrEqual(2000);
  });
});

describe("sleep", () => {
  test("rejects with the abort reason", async () => {
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal);
    ac.abort(new Error("cancelled by test"));
    await expect(p).rejects.toThrow("cancelled by test");
  });
});
