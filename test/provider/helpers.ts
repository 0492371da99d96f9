// Shared setup for provider tests: mock servers closed after each test, providers with tiny retry delays.
import { afterEach } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { type CreateProviderOptions, createProvider } from "../../src/provider/index.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/provider/types.ts";
import { type MockScriptSource, type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";

export const FORMATS = ["openai", "anthropic"] as const;
export type Format = (typeof FORMATS)[number];
export const MODEL: Record<Format, string> = { openai: "gpt-4o", anthropic: "claude-sonnet-4-5" };
export const TEST_KEY = "sk-test-SECRET0123456789abcdef";

const open: MockServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

export async function mock(script: MockScriptSource): Promise<MockServer> {
  const s = await startMockServer({ script });
  open.push(s);
  return s;
}

export function provider(
  format: Format,
  server: MockServer,
  extra: Partial<CreateProviderOptions> = {},
): Provider {
  return createProvider({
    provider: format,
    apiKey: TEST_KEY,
    baseUrl: server.url,
    maxRetries: 2,
    retryBaseMs: 1,
    ...extra,
  });
}

export const BASIC: History = [
  { role: "system", content: "You are a test." },
  { role: "user", content: "Say hello." },
];

export function request(format: Format, extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: MODEL[format], messages: BASIC, tools: [], ...extra };
}

/** Runs one request, collecting every stream event. */
export async function collect(p: Provider, req: ModelRequest) {
  const events: StreamEvent[] = [];
  const res = await p.stream(req, (ev) => events.push(ev));
  return { res, events };
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}
