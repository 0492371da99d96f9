// Limits and list prices of the models the cloud providers serve under their own names: Gemini (the Gemini
// API and Vertex AI), and the Bedrock ids of Amazon Nova, Meta Llama and Mistral (Claude on Bedrock and
// Vertex is found under its Anthropic name: models.ts drops the region and vendor prefixes and the version
// suffix). Prices: USD per million input / output / cached input tokens, the published standard tier
// (Gemini: prompts up to 200k tokens; its cached input is context caching's per-token price, implicit
// hits included; Nova: cache reads at a quarter of input, writes at no extra charge). Llama and Mistral
// on Bedrock have no prompt cache.
import type { ModelInfo } from "../contract/config.ts";

/** input, output, cache read, cache write: USD per million tokens (the cache prices where billed apart) */
export type PriceRow = [number, number, number?, number?];

export function priceOf([input, output, read, write]: PriceRow): NonNullable<ModelInfo["price"]> {
  return {
    input,
    output,
    ...(read !== undefined ? { cache_read: read } : {}),
    ...(write !== undefined ? { cache_write: write } : {}),
  };
}

const model = (
  context_window: number,
  max_output_tokens: number,
  images: boolean,
  price: PriceRow,
): ModelInfo => ({
  context_window,
  max_output_tokens,
  images: images ? "keep" : "omit",
  ...(images ? { image_tokens: 1290 } : {}),
  price: priceOf(price),
});

export const CLOUD_MODELS: Readonly<Record<string, ModelInfo>> = {
  // Google Gemini
  "gemini-3-pro": model(1_048_576, 65_536, true, [2, 12, 0.2]),
  "gemini-2.5-pro": model(1_048_576, 65_536, true, [1.25, 10, 0.125]),
  "gemini-2.5-flash": model(1_048_576, 65_536, true, [0.3, 2.5, 0.03]),
  "gemini-2.5-flash-lite": model(1_048_576, 65_536, true, [0.1, 0.4, 0.01]),
  "gemini-2.0-flash": model(1_048_576, 8192, true, [0.1, 0.4, 0.025]),
  "gemini-2.0-flash-lite": model(1_048_576, 8192, true, [0.075, 0.3]),
  // Amazon Bedrock
  "nova-premier": model(1_000_000, 10_000, true, [2.5, 12.5, 0.625]),
  "nova-pro": model(300_000, 10_000, true, [0.8, 3.2, 0.2]),
  "nova-lite": model(300_000, 10_000, true, [0.06, 0.24, 0.015]),
  "nova-micro": model(128_000, 10_000, false, [0.035, 0.14, 0.00875]),
  "llama3-3-70b-instruct": model(128_000, 8192, false, [0.72, 0.72]),
  "llama4-maverick-17b-instruct": model(1_000_000, 8192, true, [0.24, 0.97]),
  "mistral-large-2407": model(128_000, 8192, false, [2, 6]),
  "pixtral-large-2502": model(128_000, 8192, true, [2, 6]),
};
