import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ConfigFile, ModelInfo } from "../../src/contract/config.ts";
import { UserError } from "../../src/contract/errors.ts";
import { MODEL_ALIASES, MODEL_TABLE } from "../../src/provider/model-table.ts";
import { lookupModel, nameForms, resolveModel } from "../../src/provider/models.ts";

describe("model table", () => {
  test("every entry is a valid ModelInfo and every alias points at an entry", () => {
    for (const [name, info] of Object.entries(MODEL_TABLE)) {
      expect(ModelInfo.safeParse(info).success).toBe(true);
      expect(info.max_output_tokens ?? 0).toBeLessThanOrEqual(info.context_window);
      if (info.images === "keep") expect(info.image_tokens ?? 0).toBeGreaterThan(0);
      expect(name).toBe(name.toLowerCase());
    }
    for (const target of Object.values(MODEL_ALIASES)) expect(MODEL_TABLE[target]).toBeDefined();
  });

  test.each([
    ["gpt-4o", "gpt-4o"],
    ["gpt-4o-2024-08-06", "gpt-4o"],
    ["gpt-4o-mini-2024-07-18", "gpt-4o-mini"],
    ["gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"],
    ["gpt-5-chat-latest", "gpt-5-chat"],
    ["gpt-5.1", "gpt-5"],
    ["o3-mini-2025-01-31", "o3-mini"],
    ["o4-mini", "o4-mini"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-3-5-haiku-latest", "claude-3-5-haiku"],
    ["claude-opus-4-0", "claude-opus-4"],
    ["anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"],
    ["openai/gpt-4.1", "gpt-4.1"],
    ["qwen2.5-coder:32b-instruct-q4_K_M", "qwen2.5-coder"],
    ["Qwen/Qwen2.5-Coder-7B-Instruct", "qwen2.5-coder"],
    ["llama3.1:8b", "llama3.1"],
    ["meta-llama/Llama-3.3-70B-Instruct", "llama3.3"],
    ["gpt-oss:20b", "gpt-oss"],
  ])("%s → %s", (name, key) => {
    expect(lookupModel(name)).toBe(MODEL_TABLE[key]);
  });

  test("a prefix only matches at a name boundary", () => {
    expect(lookupModel("gemma3n")).toBeUndefined();
    expect(lookupModel("o3x")).toBeUndefined();
    expect(lookupModel("totally-unknown")).toBeUndefined();
  });

  test("nameForms normalises step by step", () => {
    expect(nameForms("Vendor/Model-X:tag")).toEqual([
      "Vendor/Model-X:tag",
      "vendor/model-x:tag",
      "model-x:tag",
      "model-x",
    ]);
  });
});

describe("resolveModel", () => {
  const dir = "/cfg";

  test("table figures, with the name as given", () => {
    const m = resolveModel("claude-sonnet-4-5-20250929", {}, dir);
    expect(m).toEqual({
      ...MODEL_TABLE["claude-sonnet-4-5"],
      name: "claude-sonnet-4-5-20250929",
    } as typeof m);
  });

  test("config.json models override the table; unset fields still come from the table", () => {
    const config = ConfigFile.parse({ models: { "gpt-4o": { context_window: 64_000 } } });
    const m = resolveModel("gpt-4o-2024-11-20", config, dir);
    expect(m.context_window).toBe(64_000);
    expect(m.max_output_tokens).toBe(16_384);
    expect(m.images).toBe("keep");
    expect(m.name).toBe("gpt-4o-2024-11-20");
  });

  test("an exact override for a model the table does not know", () => {
    const config = ConfigFile.parse({
      models: { "my-local:7b": { context_window: 8192, max_output_tokens: 1024, images: "omit" } },
    });
    expect(resolveModel("my-local:7b", config, dir)).toEqual({
      context_window: 8192,
      max_output_tokens: 1024,
      images: "omit",
      name: "my-local:7b",
    });
  });

  test("an unknown model is a UserError that says exactly what to add where", () => {
    let err: unknown;
    try {
      resolveModel("mystery-0", {}, dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as UserError).message).toBe(
      `unknown model "mystery-0": its context window is not known; add it to ${join(dir, "config.json")} as {"models":{"mystery-0":{"context_window":N,"max_output_tokens":N}}}`,
    );
  });
});
