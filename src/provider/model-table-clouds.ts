// Limits and list prices of the models the cloud providers serve under their own names: Gemini (the Gemini
// API and Vertex AI), and the Bedrock ids of Amazon Nova, Meta Llama and Mistral (Claude on Bedrock and
// Vertex is found under its Anthropic name: models.ts drops the region and vendor prefixes and the version
// suffix). Prices: USD per million input / output tokens, the published standard tier (Gemini: prompts up
// to 200k tokens).
import type { ModelInfo } from "../contract/config.ts";

const model = (
  context_window: number,
  max_output_tokens: number,
  images: boolean,
  price: [number, number],
): ModelInfo => ({
  context_window,
  max_output_tokens,
  images: images ? "keep" : "omit",
  ...(images ? { image_tokens: 1290 } : {}),
  price: { input: price[0], output: price[1] },
});

export const CLOUD_MODELS: Readonly<Record<string, ModelInfo>> = {
  // Google Gemini
  "gemini-3-pro": model(1_048_576, 65_536, true, [2, 12]),
  "gemini-2.5-pro": model(1_048_576, 65_536, true, [1.25, 10]),
  "gemini-2.5-flash": model(1_048_576, 65_536, true, [0.3, 2.5]),
  "gemini-2.5-flash-lite": model(1_048_576, 65_536, true, [0.1, 0.4]),
  "gemini-2.0-flash": model(1_048_576, 8192, true, [0.1, 0.4]),
  "gemini-2.0-flash-lite": model(1_048_576, 8192, true, [0.075, 0.3]),
  // Amazon Bedrock
  "nova-premier": model(1_000_000, 10_000, true, [2.5, 12.5]),
  "nova-pro": model(300_000, 10_000, true, [0.8, 3.2]),
  "nova-lite": model(300_000, 10_000, true, [0.06, 0.24]),
  "nova-micro": model(128_000, 10_000, false, [0.035, 0.14]),
  "llama3-3-70b-instruct": model(128_000, 8192, false, [0.72, 0.72]),
  "llama4-maverick-17b-instruct": model(1_000_000, 8192, true, [0.24, 0.97]),
  "mistral-large-2407": model(128_000, 8192, false, [2, 6]),
  "pixtral-large-2502": model(128_000, 8192, true, [2, 6]),
};
