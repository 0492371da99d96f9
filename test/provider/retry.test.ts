import { describe, expect, test } from "bun:test";
import { backoffDelay, parseRetryAfter, type RetryPolicy, sleep } from "../../src/provider/retry.ts";

const policy: RetryPolicy = { maxRetries: 5, baseMs: 100, maxDelayMs: 1000 };

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
  test("full jitter: anywhere from 0 up to the doubling window", () => {
    expect(backoffDelay(1, policy, undefined, () => 0)).toBe(0);
    expect(backoffDelay(1, policy, undefined, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, undefined, () => 0.5)).toBe(200);
  });

  test("the window never exceeds the cap", () => {
    expect(backoffDelay(20, policy, undefined, () => 0.999)).toBe(999);
  });

  test("retry-after is honoured exactly, but capped", () => {
    expect(backoffDelay(1, policy, 700, () => 0)).toBe(700);
    expect(backoffDelay(1, policy, 3_600_000, () => 0)).toBe(1000);
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
