// Azure OpenAI and OpenRouter against the mock: Azure's deployment URLs with api-version, `api-key` or an
// Entra ID bearer, its 401 and DeploymentNotFound in its own words, the Responses wire at /openai/v1; and
// OpenRouter's attribution headers, reasoning, routing preferences and billed cost.
import { afterEach, describe, expect, test } from "bun:test";
import { ENTRA_PREFIX } from "../../src/provider/cloud-credentials.ts";
import { locateApiKey } from "../../src/provider/credentials.ts";
import { createProvider } from "../../src/provider/index.ts";
import type { ProviderError } from "../../src/provider/types.ts";
import { type MockScriptSource, type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { collect, rejection } from "./helpers.ts";

const open: MockServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function mock(script: MockScriptSource, deployments?: string[]) {
  const s = await startMockServer({ script, ...(deployments ? { deployments } : {}) });
  open.push(s);
  return s;
}

const HISTORY = [
  { role: "system" as const, content: "You are a test." },
  { role: "user" as const, content: "Say hello." },
];
const KEY = "0123456789abcdef0123456789abcdef";

describe("azure", () => {
  test("a deployment URL with api-version and the api-key header; max_completion_tokens", async () => {
    const server = await mock([{ text: "Hello from Azure." }], ["prod-gpt"]);
    const p = createProvider({
      provider: "azure",
      apiKey: KEY,
      env: { AZURE_OPENAI_ENDPOINT: `${server.url}/`, OPENAI_API_VERSION: "2025-04-01-preview" },
      cloud: { azure: { deployment: "prod-gpt" } },
      maxRetries: 0,
    });
    const res = await p.stream({ model: "gpt-4.1", messages: HISTORY, tools: [], max_output_tokens: 100 });
    expect(res.message.content).toBe("Hello from Azure.");
    const rec = server.requests[0];
    expect(rec?.path).toBe("/openai/deployments/prod-gpt/chat/completions");
    expect(rec?.query).toBe("api-version=2025-04-01-preview");
    expect(rec?.headers["api-key"]).toBe(KEY);
    expect(rec?.headers.authorization).toBeUndefined();
    expect(rec?.body).toHaveProperty("max_completion_tokens", 100);
  });

  test("an Entra ID token (AZURE_OPENAI_AD_TOKEN) goes as a bearer; --base-url wins over the environment", async () => {
    const server = await mock([{ text: "ok" }]);
    const located = locateApiKey("azure", "/nonexistent", {
      AZURE_OPENAI_AD_TOKEN: "eyJ0eXAiOiJKV1QiLCJhbGciOi",
    });
    expect(located).toEqual({
      key: `${ENTRA_PREFIX}eyJ0eXAiOiJKV1QiLCJhbGciOi`,
      source: "AZURE_OPENAI_AD_TOKEN",
    });
    const p = createProvider({
      provider: "azure",
      apiKey: located.key,
      baseUrl: `${server.url}/openai`,
      env: { AZURE_OPENAI_ENDPOINT: "https://elsewhere.openai.azure.com" },
      maxRetries: 0,
    });
    await p.stream({ model: "gpt-4o", messages: HISTORY, tools: [] });
    const rec = server.requests[0];
    expect(rec?.path).toBe("/openai/deployments/gpt-4o/chat/completions");
    expect(rec?.query).toBe("api-version=2024-10-21");
    expect(rec?.headers.authorization).toBe("Bearer eyJ0eXAiOiJKV1QiLCJhbGciOi");
    expect(rec?.headers["api-key"]).toBeUndefined();
  });

  test("a wrong deployment and a refused key, each one line naming azure and what to check", async () => {
    const server = await mock([{ text: "never" }], ["prod-gpt"]);
    const p = createProvider({ provider: "azure", apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const missing = (await rejection(
      p.stream({ model: "gpt-4o", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(missing.kind).toBe("not_found");
    expect(missing.message).toMatch(
      /^azure model "gpt-4o": HTTP 404: The API deployment for this resource does not exist.*; check the deployment name \(config.json azure.deployment, default the model name\) and AZURE_OPENAI_ENDPOINT$/,
    );
    const keyless = createProvider({
      provider: "azure",
      apiKey: "none",
      baseUrl: server.url,
      maxRetries: 0,
      cloud: { azure: { deployment: "prod-gpt" } },
    });
    const denied = (await rejection(
      keyless.stream({ model: "gpt-4o", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(denied.kind).toBe("auth");
    expect(denied.message).toContain("HTTP 401: Access denied due to invalid subscription key");
    expect(denied.message).toContain("AZURE_OPENAI_API_KEY");
  });

  test("no endpoint anywhere is one line saying where to set it", () => {
    expect(() => createProvider({ provider: "azure", apiKey: KEY, env: {} })).toThrow(
      /^azure: no endpoint: set AZURE_OPENAI_ENDPOINT \(like https:\/\/NAME.openai.azure.com\)/,
    );
  });

  test("429 with retry-after and an overflow in OpenAI's words through Azure", async () => {
    const server = await mock([
      { error: "rate_limit", retry_after: 0.01 },
      { text: "ok" },
      { error: "overflow" },
    ]);
    const p = createProvider({
      provider: "azure",
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 2,
      retryBaseMs: 1,
    });
    const { res, events } = await collect(p, { model: "gpt-4o", messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("ok");
    expect(events.some((e) => e.type === "retry" && e.delay_ms === 10)).toBe(true);
    const o = (await rejection(p.stream({ model: "gpt-4o", messages: HISTORY, tools: [] }))) as ProviderError;
    expect(o.kind).toBe("context_overflow");
  });
});

describe("openrouter", () => {
  test("attribution headers, reasoning, routing preferences, and the billed cost as the request's cost", async () => {
    const server = await mock([
      {
        text: "Routed.",
        reasoning: "Which provider?",
        cost: 0.00042,
        usage: { input_tokens: 12, output_tokens: 3 },
      },
    ]);
    const p = createProvider({
      provider: "openrouter",
      apiKey: "sk-or-v1-0123456789abcdef0123456789abcdef",
      baseUrl: `${server.url}/api/v1`,
      cloud: {
        openrouter: {
          app_url: "https://example.com/my-team",
          app_title: "team agent",
          reasoning_effort: "high",
          routing: {
            order: ["anthropic", "amazon-bedrock"],
            allow_fallbacks: false,
            data_collection: "deny",
          },
        },
      },
      maxRetries: 0,
    });
    const { res, events } = await collect(p, {
      model: "anthropic/claude-sonnet-4.5",
      messages: HISTORY,
      tools: [],
    });
    expect(res.message.content).toBe("Routed.");
    expect(
      events
        .filter((e) => e.type === "reasoning_delta")
        .map((e) => (e.type === "reasoning_delta" ? e.text : ""))
        .join(""),
    ).toBe("Which provider?");
    expect(res.usage).toEqual({ input_tokens: 12, output_tokens: 3, cost_usd: 0.00042 });
    const rec = server.requests[0];
    expect(rec?.path).toBe("/api/v1/chat/completions");
    expect(rec?.headers["http-referer"]).toBe("https://example.com/my-team");
    expect(rec?.headers["x-title"]).toBe("team agent");
    expect(rec?.headers.authorization).toBe("Bearer sk-or-v1-0123456789abcdef0123456789abcdef");
    const body = rec?.body as Record<string, unknown>;
    expect(body.usage).toEqual({ include: true });
    expect(body.reasoning).toEqual({ effort: "high" });
    expect(body.provider).toEqual({
      order: ["anthropic", "amazon-bedrock"],
      allow_fallbacks: false,
      data_collection: "deny",
    });
  });

  test("a refused key names OPENROUTER_API_KEY; the key is read from it", async () => {
    expect(locateApiKey("openrouter", "/nonexistent", { OPENROUTER_API_KEY: "sk-or-v1-abc" }).source).toBe(
      "OPENROUTER_API_KEY",
    );
    const server = await mock([{ error: "auth" }]);
    const p = createProvider({
      provider: "openrouter",
      apiKey: "sk-or-v1-abc",
      baseUrl: `${server.url}/api/v1`,
      maxRetries: 0,
    });
    const err = (await rejection(
      p.stream({ model: "openai/gpt-4o", messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/^openrouter model "openai\/gpt-4o": HTTP 401: .*OPENROUTER_API_KEY/);
  });
});
