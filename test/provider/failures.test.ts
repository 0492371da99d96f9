// Failure handling end to end, both wire formats: retries, classification, messages, cancellation.
import { describe, expect, test } from "bun:test";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";
import { collect, FORMATS, MODEL, mock, provider, rejection, request, TEST_KEY } from "./helpers.ts";

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await rejection(p);
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(err)}`);
  return err;
}

for (const format of FORMATS) {
  describe(`${format}: failures`, () => {
    test("429 with retry-after, then success: waits what the server asked and emits a retry event", async () => {
      const server = await mock([{ error: "rate_limit", retry_after: 0.05 }, { text: "finally" }]);
      const { res, events } = await collect(
        provider(format, server, { retryMaxMs: 60_000 }),
        request(format),
      );
      expect(res.message.content).toBe("finally");
      const retries = events.filter((e) => e.type === "retry");
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ type: "retry", attempt: 1, delay_ms: 50 });
      expect((retries[0] as { reason: string }).reason).toContain("HTTP 429");
      expect(server.requests).toHaveLength(2);
    });

    test("a retry-after beyond the cap is not waited for: one clear error, no early retry", async () => {
      const server = await mock([{ error: "rate_limit", retry_after: 3600 }, { text: "ok" }]);
      const events: StreamEvent[] = [];
      const err = await providerError(
        provider(format, server, { retryMaxMs: 5 }).stream(request(format), (e) => events.push(e)),
      );
      expect(err.kind).toBe("rate_limit");
      expect(err.message).toContain("the server asks to wait 3600 s, longer than the 5 ms retry cap");
      expect(events.some((e) => e.type === "retry")).toBe(false);
      expect(server.requests).toHaveLength(1);
    });

    test("500s are retried up to maxRetries, then the last error is thrown", async () => {
      const server = await mock([
        { error: "server" },
        { error: "server" },
        { error: "server" },
        { text: "never" },
      ]);
      const events: StreamEvent[] = [];
      const err = await providerError(
        provider(format, server).stream(request(format), (e) => events.push(e)),
      );
      expect(err.kind).toBe("server");
      expect(err.status).toBe(500);
      expect(server.requests).toHaveLength(3); // first attempt + maxRetries (2)
      expect(events.map((e) => e.type)).toEqual(["retry", "retry"]);
    });

    test("maxRetries 0 means one attempt", async () => {
      const server = await mock([{ status: 503 }, { text: "never" }]);
      const err = await providerError(provider(format, server, { maxRetries: 0 }).stream(request(format)));
      expect(err.kind).toBe("server");
      expect(server.requests).toHaveLength(1);
    });

    test("401: auth, not retried; message names provider, model and status, never the key", async () => {
      const server = await mock([{ error: "auth" }, { text: "never" }]);
      const err = await providerError(provider(format, server).stream(request(format)));
      expect(err.kind).toBe("auth");
      expect(err.status).toBe(401);
      expect(err.message).toContain(format);
      expect(err.message).toContain(`"${MODEL[format]}"`);
      expect(err.message).toContain("HTTP 401");
      expect(err.message).not.toContain(TEST_KEY);
      expect(err.message).not.toContain("SECRET");
      expect(server.requests).toHaveLength(1);
    });

    test("404 unknown model: not_found with the server's explanation", async () => {
      const server = await mock([{ error: "not_found" }]);
      const err = await providerError(
        provider(format, server).stream(request(format, { model: "no-such-model" })),
      );
      expect(err.kind).toBe("not_found");
      expect(err.message).toContain('"no-such-model"');
      expect(err.message).toContain("HTTP 404");
      expect(err.message).toContain("no-such-model");
      expect(server.requests).toHaveLength(1);
    });

    test("context overflow is classified and not retried", async () => {
      const server = await mock([{ error: "overflow" }, { text: "never" }]);
      const err = await providerError(provider(format, server).stream(request(format)));
      expect(err.kind).toBe("context_overflow");
      expect(err.status).toBe(400);
      expect(server.requests).toHaveLength(1);
    });

    test("a plain 400 is bad_request and not retried", async () => {
      const server = await mock([{ status: 400 }, { text: "never" }]);
      const err = await providerError(provider(format, server).stream(request(format)));
      expect(err.kind).toBe("bad_request");
      expect(server.requests).toHaveLength(1);
    });

    test("cancellation mid-stream rejects promptly with kind cancelled", async () => {
      const server = await mock([{ text: "partial answer", hang: true }]);
      const ac = new AbortController();
      const seen: string[] = [];
      const p = provider(format, server).stream(request(format, { signal: ac.signal }), (e) => {
        if (e.type === "text_delta") {
          seen.push(e.text);
          ac.abort();
        }
      });
      const err = await providerError(p);
      expect(err.kind).toBe("cancelled");
      expect(seen.length).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(1);
    }, 5000);

    test("cancellation while waiting for the response headers", async () => {
      const server = await mock([{ text: "slow", delay_ms: 60_000 }]);
      const ac = new AbortController();
      const p = provider(format, server).stream(request(format, { signal: ac.signal }));
      setTimeout(() => ac.abort(), 20);
      expect((await providerError(p)).kind).toBe("cancelled");
    }, 5000);

    test("cancellation during a retry wait", async () => {
      const server = await mock([{ error: "rate_limit", retry_after: 60 }, { text: "never" }]);
      const ac = new AbortController();
      const p = provider(format, server, { retryMaxMs: 60_000 }).stream(
        request(format, { signal: ac.signal }),
        (e) => {
          if (e.type === "retry") ac.abort();
        },
      );
      expect((await providerError(p)).kind).toBe("cancelled");
      expect(server.requests).toHaveLength(1);
    }, 5000);

    test("an already aborted signal never reaches the server", async () => {
      const server = await mock([{ text: "never" }]);
      const err = await providerError(
        provider(format, server).stream(request(format, { signal: AbortSignal.abort() })),
      );
      expect(err.kind).toBe("cancelled");
      expect(server.requests).toHaveLength(0);
    });

    test("a connection cut after content was streamed is retried; the retry says the partial text is discarded", async () => {
      const server = await mock([{ text: "half of an answer", drop: true }, { text: "second" }]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(res.message.content).toBe("second");
      const retry = events.find((e) => e.type === "retry");
      expect(retry).toMatchObject({ type: "retry", attempt: 1, discarded: true });
      expect(server.requests).toHaveLength(2);
    });

    test("a cut on every attempt fails after maxRetries with the last attempt's partial text", async () => {
      const cut = { text: "half of an answer", drop: true };
      const server = await mock([cut, cut, cut, { text: "never" }]);
      const err = await providerError(provider(format, server).stream(request(format)));
      expect(err.kind).toBe("network");
      expect(err.partialText).toBe("half of an answer");
      expect(server.requests).toHaveLength(3);
    });

    test("a stalled stream is given up after the idle timeout and retried once", async () => {
      const server = await mock([{ text: "started", stall_ms: 5000 }, { text: "fresh reply" }]);
      const started = Date.now();
      const { res, events } = await collect(
        provider(format, server, { idleTimeoutMs: 150 }),
        request(format),
      );
      expect(res.message.content).toBe("fresh reply");
      expect(Date.now() - started).toBeLessThan(3000);
      const retry = events.find((e) => e.type === "retry") as { reason: string; discarded?: boolean };
      expect(retry.reason).toContain("no data from the server for 0.1 s");
      expect(retry.reason).toContain("stream_idle_timeout_ms");
      expect(retry.discarded).toBe(true);
    });

    test("a stream that stalls twice fails with one clear line, partial text kept, even with maxRetries 0", async () => {
      const stalled = { text: "partial words", stall_ms: 5000 };
      const server = await mock([stalled, stalled, { text: "never" }]);
      const err = await providerError(
        provider(format, server, { idleTimeoutMs: 100, maxRetries: 0 }).stream(request(format)),
      );
      expect(err.message).toBe(
        `${format} model "${MODEL[format]}": no data from the server for 0.1 s (stream_idle_timeout_ms in config.json); gave up after one retry`,
      );
      expect(err.partialText).toBe("partial words");
      expect(server.requests).toHaveLength(2);
    });

    test("a server that never sends headers hits the idle timeout too", async () => {
      const server = await mock([{ text: "late", delay_ms: 5000 }, { text: "on time" }]);
      const { res } = await collect(provider(format, server, { idleTimeoutMs: 100 }), request(format));
      expect(res.message.content).toBe("on time");
    });

    test("keep-alive comments during a pause keep the stream alive", async () => {
      const server = await mock([{ text: "slow but alive", stall_ms: 400, keepalive_ms: 40 }]);
      const { res, events } = await collect(
        provider(format, server, { idleTimeoutMs: 150 }),
        request(format),
      );
      expect(res.message.content).toBe("slow but alive");
      expect(events.some((e) => e.type === "retry")).toBe(false);
    });

    test("a connection cut before any content is retried", async () => {
      const server = await mock([{ drop: true }, { text: "second try" }]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(res.message.content).toBe("second try");
      expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
      expect(server.requests).toHaveLength(2);
    });

    test("an error thrown by the caller's event handler reaches the caller unchanged", async () => {
      const server = await mock([{ text: "hello world" }, { text: "never" }]);
      const boom = new Error("handler failed");
      const err = await rejection(
        provider(format, server).stream(request(format), () => {
          throw boom;
        }),
      );
      expect(err).toBe(boom);
      expect(server.requests).toHaveLength(1);
    });

    test("nothing listening: a network error naming the provider", async () => {
      const server = await mock([]);
      const url = server.url;
      await server.close();
      const p = provider(format, { url, requests: [], close: async () => {} }, { maxRetries: 1 });
      const err = await providerError(p.stream(request(format)));
      expect(err.kind).toBe("network");
      expect(err.message).toContain(format);
    });
  });
}
