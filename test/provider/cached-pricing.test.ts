// Every provider's usage, from its own wire, priced by the model that served the request: the cached part
// of the prompt at the cache's own price where the provider bills it so (OpenAI and Azure reads; Anthropic,
// Bedrock and Vertex Claude reads and writes; Gemini on both APIs reads), and OpenRouter's billed cost as
// it reported it. Each reply comes from the mock of that wire, so a usage field the decoder drops shows here.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "../../src/contract/usage.ts";
import { requestCost } from "../../src/lib/request-cost.ts";
import { type CreateProviderOptions, createProvider, lookupModel } from "../../src/provider/index.ts";
import { type MockServer, type MockStep, startMockServer } from "../fixtures/mock-server/index.ts";
import type { MockAwsIdentity } from "../fixtures/mock-server/sigv4-check.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const HISTORY = [
  { role: "system" as const, content: "You are a test." },
  { role: "user" as const, content: "Say hello." },
];
const AWS: MockAwsIdentity = {
  accessKeyId: "AKIDEXAMPLETEST0001",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const EMAIL = "agent@test-project.iam.gserviceaccount.com";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

let dir: string;
beforeAll(() => {
  dir = tempDir("i-cached-pricing-");
});
afterAll(() => removeDir(dir));
const open: MockServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function served(
  step: MockStep,
  model: string,
  opts: (server: MockServer) => Omit<CreateProviderOptions, "apiKey"> & { apiKey?: string },
): Promise<Usage> {
  const server = await startMockServer({
    script: [step],
    deployments: ["prod"],
    aws: { identity: AWS, region: "us-west-2" },
    google: {
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
      clientEmail: EMAIL,
    },
  });
  open.push(server);
  const p = createProvider({ apiKey: "k-0123456789abcdef", maxRetries: 0, ...opts(server) });
  const res = await p.stream({ model, messages: HISTORY, tools: [] });
  if (!res.usage) throw new Error(`${model}: no usage reported`);
  return res.usage;
}

/** What the request costs at the table's price of `model`. */
function priced(u: Usage, model: string): number | undefined {
  return requestCost(u, lookupModel(model)?.price);
}

const perM = (tokens: number, usd: number) => (tokens * usd) / 1e6;
const TOKENS = { input_tokens: 10_000, output_tokens: 1_000 };

function vertexEnv(server: MockServer): Record<string, string> {
  const file = join(dir, `sa-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "test-project",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: EMAIL,
      token_uri: `${server.url}/token`,
    }),
  );
  return { GOOGLE_APPLICATION_CREDENTIALS: file, GOOGLE_CLOUD_LOCATION: "us-central1", HOME: dir };
}

describe("usage and cost per provider", () => {
  test("OpenAI: cached input at its own price", async () => {
    const step = { text: "hi", usage: { ...TOKENS, cached_tokens: 8_000 } };
    const u = await served(step, "gpt-4.1", (s) => ({ provider: "openai", baseUrl: `${s.url}/v1` }));
    expect(u.cache_read_tokens).toBe(8_000);
    expect(priced(u, "gpt-4.1")).toBeCloseTo(perM(2_000, 2) + perM(8_000, 0.5) + perM(1_000, 8), 12);
  });

  test("Azure OpenAI: the deployment's cached input at the model's cached price", async () => {
    const step = { text: "hi", usage: { ...TOKENS, cached_tokens: 6_000 } };
    const u = await served(step, "gpt-4o", (s) => ({
      provider: "azure",
      env: { AZURE_OPENAI_ENDPOINT: s.url },
      cloud: { azure: { deployment: "prod" } },
    }));
    expect(u.cache_read_tokens).toBe(6_000);
    expect(priced(u, "gpt-4o")).toBeCloseTo(perM(4_000, 2.5) + perM(6_000, 1.25) + perM(1_000, 10), 12);
  });

  test("Anthropic: cache reads and cache writes each at their own price", async () => {
    const step = { text: "hi", usage: TOKENS, cached_tokens: 6_000, cache_write_tokens: 2_000 };
    const u = await served(step, "claude-sonnet-4-5", (s) => ({ provider: "anthropic", baseUrl: s.url }));
    expect(u).toMatchObject({ input_tokens: 10_000, cache_read_tokens: 6_000, cache_write_tokens: 2_000 });
    expect(priced(u, "claude-sonnet-4-5")).toBeCloseTo(
      perM(2_000, 3) + perM(6_000, 0.3) + perM(2_000, 3.75) + perM(1_000, 15),
      12,
    );
  });

  test("Bedrock Claude: cacheRead and cacheWrite tokens priced as Anthropic bills them", async () => {
    const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const step = { text: "hi", usage: TOKENS, cached_tokens: 6_000, cache_write_tokens: 2_000 };
    const u = await served(step, model, (s) => ({
      provider: "bedrock",
      baseUrl: s.url,
      env: {
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
        AWS_REGION: "us-west-2",
        HOME: dir,
      },
    }));
    expect(u).toMatchObject({ input_tokens: 10_000, cache_read_tokens: 6_000, cache_write_tokens: 2_000 });
    expect(priced(u, model)).toBeCloseTo(
      perM(2_000, 3) + perM(6_000, 0.3) + perM(2_000, 3.75) + perM(1_000, 15),
      12,
    );
  });

  test("Bedrock Nova: cache reads at a quarter of input", async () => {
    const model = "amazon.nova-pro-v1:0";
    const step = { text: "hi", usage: TOKENS, cached_tokens: 4_000 };
    const u = await served(step, model, (s) => ({
      provider: "bedrock",
      baseUrl: s.url,
      env: {
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
        AWS_REGION: "us-west-2",
        HOME: dir,
      },
    }));
    expect(priced(u, model)).toBeCloseTo(perM(6_000, 0.8) + perM(4_000, 0.2) + perM(1_000, 3.2), 12);
  });

  test("Gemini: cachedContentTokenCount at the cached price", async () => {
    const step = { text: "hi", usage: TOKENS, cached_tokens: 8_000 };
    const u = await served(step, "gemini-2.5-pro", (s) => ({ provider: "gemini", baseUrl: s.url }));
    expect(u.cache_read_tokens).toBe(8_000);
    expect(priced(u, "gemini-2.5-pro")).toBeCloseTo(
      perM(2_000, 1.25) + perM(8_000, 0.125) + perM(1_000, 10),
      12,
    );
  });

  test("Vertex AI: Gemini's cached tokens, and Claude's cache reads and writes", async () => {
    const g = await served({ text: "hi", usage: TOKENS, cached_tokens: 5_000 }, "gemini-2.5-flash", (s) => ({
      provider: "vertex",
      baseUrl: s.url,
      env: vertexEnv(s),
    }));
    expect(priced(g, "gemini-2.5-flash")).toBeCloseTo(
      perM(5_000, 0.3) + perM(5_000, 0.03) + perM(1_000, 2.5),
      12,
    );
    const model = "claude-haiku-4-5@20251001";
    const c = await served(
      { text: "hi", usage: TOKENS, cached_tokens: 6_000, cache_write_tokens: 2_000 },
      model,
      (s) => ({ provider: "vertex", baseUrl: s.url, env: vertexEnv(s) }),
    );
    expect(priced(c, model)).toBeCloseTo(
      perM(2_000, 1) + perM(6_000, 0.1) + perM(2_000, 1.25) + perM(1_000, 5),
      12,
    );
  });

  test("OpenRouter: the cost it reports is the cost, over the list price", async () => {
    const step = { text: "hi", usage: { ...TOKENS, cached_tokens: 8_000 }, cost: 0.004321 };
    const model = "anthropic/claude-sonnet-4.5";
    const u = await served(step, model, (s) => ({ provider: "openrouter", baseUrl: `${s.url}/v1` }));
    expect(u.cost_usd).toBe(0.004321);
    expect(priced(u, model)).toBe(0.004321);
  });

  test("a model without cache prices counts the cached part at the input price; no price, no cost", () => {
    const u = { ...TOKENS, cache_read_tokens: 8_000, cache_write_tokens: 1_000 };
    expect(requestCost(u, { input: 2, output: 10 })).toBeCloseTo(perM(10_000, 2) + perM(1_000, 10), 12);
    expect(requestCost(u, undefined)).toBeUndefined();
    expect(requestCost({ ...u, cost_usd: 0.5 }, undefined)).toBe(0.5);
  });
});
