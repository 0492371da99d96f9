// The sequence of retry waits against real sockets: a closed port on this machine (fail fast, one clear
// line), a closed port on another address of this machine (bounded backoff), and the mock server's
// 429/503 with retry-after. Waits are recorded by an injected sleep, so nothing here depends on timing.
import { describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { networkInterfaces } from "node:os";
import { type CreateProviderOptions, createProvider } from "../../src/provider/index.ts";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";
import { mock, provider, rejection, request } from "./helpers.ts";

/** A port nothing listens on: bound, then released. */
async function closedPort(host: string): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, host, resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (!addr || typeof addr === "string") throw new Error("no port");
  return addr.port;
}

/** Records every wait and returns at once; still rejects on abort like the real sleep. */
function recorder() {
  const waits: number[] = [];
  const sleep = (ms: number, signal?: AbortSignal) => {
    waits.push(ms);
    return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  };
  return { waits, sleep };
}

async function failure(baseUrl: string, extra: Partial<CreateProviderOptions>) {
  const rec = recorder();
  const events: StreamEvent[] = [];
  const p = createProvider({ provider: "openai", apiKey: "none", baseUrl, sleep: rec.sleep, ...extra });
  const err = await rejection(p.stream(request("openai"), (e) => events.push(e)));
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(err)}`);
  return { err, waits: rec.waits, retries: events.filter((e) => e.type === "retry") };
}

describe("retry waits", () => {
  test("a refused local server: at most 2 short retries, ≤ 2 s in all, one line naming the URL", async () => {
    const port = await closedPort("127.0.0.1");
    const url = `http://127.0.0.1:${port}/v1`;
    // The default policy (4 retries, 30 s cap) is what a user gets; the local rule must override it.
    const { err, waits, retries } = await failure(url, {});
    expect(err.kind).toBe("network");
    expect(waits.length).toBeLessThanOrEqual(2);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(retries.map((r) => (r as { delay_ms: number }).delay_ms)).toEqual(waits);
    expect(err.message).toContain(`${url}/chat/completions`);
    expect(err.message).toContain("connection refused");
    expect(err.message).toContain("is the server running?");
    expect(err.message).not.toContain("\n");
  });

  test("localhost counts as local too", async () => {
    const port = await closedPort("127.0.0.1");
    const { err, waits } = await failure(`http://localhost:${port}/v1`, {});
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(err.message).toContain("is the server running?");
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  // Needs an address of this machine that is not loopback; containers without one skip it.
  test.skipIf(external === undefined)(
    "a refused remote host: 4 retries, growing waits, bounded",
    async () => {
      const host = external as string;
      const port = await closedPort(host);
      const { err, waits } = await failure(`http://${host}:${port}/v1`, {});
      expect(waits).toHaveLength(4);
      // equal jitter over windows of 1, 2, 4, 8 s: each wait in [window/2, window)
      waits.forEach((w, i) => {
        const window = 1000 * 2 ** i;
        expect(w).toBeGreaterThanOrEqual(window / 2);
        expect(w).toBeLessThan(window);
      });
      expect(err.message).toContain("connection refused; gave up after 4 retries");
      expect(err.message).not.toContain("is the server running?");
    },
  );

  test("429 and 503 with retry-after: exactly the waits the server asked for", async () => {
    const server = await mock([
      { error: "rate_limit", retry_after: 2 },
      { status: 503, retry_after: 0.5 },
      { text: "done" },
    ]);
    const rec = recorder();
    const res = await provider("openai", server, { maxRetries: 4, sleep: rec.sleep }).stream(
      request("openai"),
    );
    expect(res.message.content).toBe("done");
    expect(rec.waits).toEqual([2000, 500]);
  });

  test("retry-after waits stop at the total budget", async () => {
    const server = await mock([
      { error: "rate_limit", retry_after: 20 },
      { error: "rate_limit", retry_after: 20 },
      { text: "never" },
    ]);
    const rec = recorder();
    const p = provider("openai", server, { maxRetries: 4, retryTotalMs: 30_000, sleep: rec.sleep });
    const err = await rejection(p.stream(request("openai")));
    expect(rec.waits).toEqual([20_000]);
    expect(String((err as Error).message)).toContain(
      "gave up after 1 retry (retry waits are capped at 30 s in all)",
    );
    expect(server.requests).toHaveLength(2);
  });

  test("Ctrl-C during a real backoff wait cancels it at once", async () => {
    const server = await mock([{ error: "rate_limit", retry_after: 25 }, { text: "never" }]);
    const ac = new AbortController();
    const started = Date.now();
    const err = await rejection(
      provider("openai", server).stream(request("openai", { signal: ac.signal }), (e) => {
        if (e.type === "retry") setTimeout(() => ac.abort(), 20);
      }),
    );
    expect((err as ProviderError).kind).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(10_000); // generous: the wait was 25 s
  });
});
