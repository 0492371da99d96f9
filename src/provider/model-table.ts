// Limits of common models, so most users never have to write them down. config.json `models` overrides
// any entry. Figures are the providers' published ones; image_tokens is a typical per-image cost used for
// budgeting (a full-size screenshot), not an exact count. Text-only models default to omitting images.
import type { ModelInfo } from "../contract/config.ts";
import { CLOUD_MODELS, type PriceRow, priceOf } from "./model-table-clouds.ts";

const vision = (context_window: number, max_output_tokens: number, image_tokens: number): ModelInfo => ({
  context_window,
  max_output_tokens,
  images: "keep",
  image_tokens,
});
const textOnly = (context_window: number, max_output_tokens: number): ModelInfo => ({
  context_window,
  max_output_tokens,
  images: "omit",
});

const LIMITS: Readonly<Record<string, ModelInfo>> = {
  // OpenAI
  "gpt-5": vision(400_000, 128_000, 765),
  "gpt-5-mini": vision(400_000, 128_000, 1536),
  "gpt-5-nano": vision(400_000, 128_000, 1536),
  "gpt-5-codex": vision(400_000, 128_000, 765),
  "gpt-5-pro": vision(400_000, 272_000, 765),
  "gpt-5-chat": vision(128_000, 16_384, 765),
  "gpt-4.1": vision(1_047_576, 32_768, 765),
  "gpt-4.1-mini": vision(1_047_576, 32_768, 1536),
  "gpt-4.1-nano": vision(1_047_576, 32_768, 1536),
  "gpt-4o": vision(128_000, 16_384, 765),
  "gpt-4o-mini": vision(128_000, 16_384, 765),
  o1: vision(200_000, 100_000, 765),
  "o1-mini": textOnly(128_000, 65_536),
  o3: vision(200_000, 100_000, 765),
  "o3-pro": vision(200_000, 100_000, 765),
  "o3-mini": textOnly(200_000, 100_000),
  "o4-mini": vision(200_000, 100_000, 1536),
  "codex-mini": vision(200_000, 100_000, 1536),
  // Anthropic
  "claude-opus-4-5": vision(200_000, 64_000, 1600),
  "claude-opus-4-1": vision(200_000, 32_000, 1600),
  "claude-opus-4": vision(200_000, 32_000, 1600),
  "claude-sonnet-4-5": vision(200_000, 64_000, 1600),
  "claude-sonnet-4": vision(200_000, 64_000, 1600),
  "claude-haiku-4-5": vision(200_000, 64_000, 1600),
  "claude-3-7-sonnet": vision(200_000, 64_000, 1600),
  "claude-3-5-sonnet": vision(200_000, 8192, 1600),
  "claude-3-5-haiku": vision(200_000, 8192, 1600),
  "claude-3-opus": vision(200_000, 4096, 1600),
  "claude-3-haiku": vision(200_000, 4096, 1600),
  // Open models as Ollama, vLLM or llama.cpp serve them. The server's own context setting (e.g. Ollama's
  // OLLAMA_CONTEXT_LENGTH) must be at least this large, or override the entry in config.json.
  "llama3.3": textOnly(131_072, 8192),
  "llama3.2-vision": vision(131_072, 8192, 1601),
  "llama3.2": textOnly(131_072, 8192),
  "llama3.1": textOnly(131_072, 8192),
  llama3: textOnly(8192, 4096),
  "qwen3-coder": textOnly(262_144, 65_536),
  qwen3: textOnly(40_960, 16_384),
  "qwen2.5-coder": textOnly(32_768, 8192),
  "qwen2.5": textOnly(32_768, 8192),
  "deepseek-r1": textOnly(131_072, 32_768),
  "deepseek-coder-v2": textOnly(163_840, 8192),
  "gpt-oss": textOnly(131_072, 32_768),
  gemma3: vision(131_072, 8192, 256),
  mistral: textOnly(32_768, 8192),
  phi4: textOnly(16_384, 4096),
};

/**
 * Published list prices, USD per million tokens, for the console's cost: input (uncached), output, then
 * input read from the prompt cache and, where it is billed apart, input written to it (Anthropic's 5-minute
 * cache, the same on Bedrock and Vertex AI). OpenAI bills no writes: a cache write is plain input.
 */
const PRICES: Readonly<Record<string, PriceRow>> = {
  "gpt-5": [1.25, 10, 0.125],
  "gpt-5-mini": [0.25, 2, 0.025],
  "gpt-5-nano": [0.05, 0.4, 0.005],
  "gpt-4.1": [2, 8, 0.5],
  "gpt-4.1-mini": [0.4, 1.6, 0.1],
  "gpt-4.1-nano": [0.1, 0.4, 0.025],
  "gpt-4o": [2.5, 10, 1.25],
  "gpt-4o-mini": [0.15, 0.6, 0.075],
  o3: [2, 8, 0.5],
  "o3-mini": [1.1, 4.4, 0.55],
  "o4-mini": [1.1, 4.4, 0.275],
  "claude-opus-4-5": [5, 25, 0.5, 6.25],
  "claude-opus-4-1": [15, 75, 1.5, 18.75],
  "claude-opus-4": [15, 75, 1.5, 18.75],
  "claude-sonnet-4-5": [3, 15, 0.3, 3.75],
  "claude-sonnet-4": [3, 15, 0.3, 3.75],
  "claude-haiku-4-5": [1, 5, 0.1, 1.25],
  "claude-3-7-sonnet": [3, 15, 0.3, 3.75],
  "claude-3-5-haiku": [0.8, 4, 0.08, 1],
};

/** Models trained on codex's patch format: they get apply_patch instead of edit and write. */
const PATCH_MODELS = new Set(["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-codex", "gpt-5-pro", "codex-mini"]);

export const MODEL_TABLE: Readonly<Record<string, ModelInfo>> = Object.fromEntries([
  ...Object.entries(CLOUD_MODELS),
  ...Object.entries(LIMITS).map(([name, info]) => {
    const p = PRICES[name];
    return [
      name,
      {
        ...info,
        ...(PATCH_MODELS.has(name) ? { edit_tool: "apply_patch" as const } : {}),
        ...(p ? { price: priceOf(p) } : {}),
      },
    ];
  }),
]);

/**
 * Other spellings of table names: dotted Anthropic aliases, and the names vLLM / Hugging Face / OpenRouter
 * use for the open models (compared after lower-casing and dropping the "vendor/" prefix).
 */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  "claude-opus-4-0": "claude-opus-4",
  "claude-sonnet-4-0": "claude-sonnet-4",
  "claude-3.7-sonnet": "claude-3-7-sonnet",
  "claude-3.5-sonnet": "claude-3-5-sonnet",
  "claude-3.5-haiku": "claude-3-5-haiku",
  "claude-opus-4.5": "claude-opus-4-5",
  "claude-opus-4.1": "claude-opus-4-1",
  "claude-sonnet-4.5": "claude-sonnet-4-5",
  "claude-haiku-4.5": "claude-haiku-4-5",
  "llama-3.3": "llama3.3",
  "llama-3.2": "llama3.2",
  "llama-3.1": "llama3.1",
  "meta-llama-3.1": "llama3.1",
  "meta-llama-3": "llama3",
  "deepseek-r1-distill": "deepseek-r1",
  "gemma-3": "gemma3",
  "phi-4": "phi4",
};
