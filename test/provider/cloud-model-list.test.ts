// /model's list from the cloud providers: Gemini's models (names without "models/"), OpenRouter's ids, and
// none asked of the signed or per-deployment clouds (their models come from the built-in table).
import { expect, test } from "bun:test";
import { listProviderModels } from "../../src/provider/model-list.ts";
import { MODEL_TABLE } from "../../src/provider/model-table.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";

test("gemini and openrouter list their models; bedrock, vertex and azure ask nothing", async () => {
  const server = await startMockServer({ script: [], models: ["gemini-2.5-pro", "gemini-2.5-flash"] });
  try {
    expect(
      await listProviderModels({ provider: "gemini", apiKey: "AIza-test", baseUrl: server.url }),
    ).toEqual(["gemini-2.5-flash", "gemini-2.5-pro"]);
    expect(
      await listProviderModels({ provider: "openrouter", apiKey: "sk-or", baseUrl: `${server.url}/api/v1` }),
    ).toEqual(["gemini-2.5-flash", "gemini-2.5-pro"]);
    for (const provider of ["bedrock", "vertex", "azure"] as const)
      expect(await listProviderModels({ provider, apiKey: "x", baseUrl: server.url })).toEqual([]);
  } finally {
    await server.close();
  }
});

test("the built-in table knows the cloud models with windows and prices", () => {
  for (const name of ["gemini-2.5-pro", "gemini-2.5-flash", "nova-pro", "llama3-3-70b-instruct"]) {
    expect(MODEL_TABLE[name]?.context_window).toBeGreaterThan(100_000);
    expect(MODEL_TABLE[name]?.price?.input).toBeGreaterThan(0);
  }
});

test("cloud spellings of model names find their table entries", async () => {
  const { lookupModel } = await import("../../src/provider/models.ts");
  expect(lookupModel("us.anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(
    MODEL_TABLE["claude-sonnet-4-5"],
  );
  expect(lookupModel("claude-opus-4-1@20250805")).toEqual(MODEL_TABLE["claude-opus-4-1"]);
  expect(lookupModel("amazon.nova-pro-v1:0")).toEqual(MODEL_TABLE["nova-pro"]);
  expect(lookupModel("meta.llama3-3-70b-instruct-v1:0")).toEqual(MODEL_TABLE["llama3-3-70b-instruct"]);
  expect(lookupModel("gemini-3-pro-preview")).toEqual(MODEL_TABLE["gemini-3-pro"]);
  expect(lookupModel("google/gemini-2.5-flash")).toEqual(MODEL_TABLE["gemini-2.5-flash"]);
});
