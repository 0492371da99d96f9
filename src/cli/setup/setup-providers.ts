// The providers the setup offers and the models it lists for each. The names listed are the ones each
// service takes in a request (a Bedrock model id, a Vertex Claude version, an OpenRouter "vendor/model"),
// every one of them found in the built-in model table, so its window and price are known.
import type { ProviderName } from "../../contract/config.ts";
import { MODEL_TABLE } from "../../provider/model-table.ts";
import { CLOUD_MODELS } from "../../provider/model-table-clouds.ts";

export type Choice =
  | "openai"
  | "anthropic"
  | "gemini"
  | "vertex"
  | "bedrock"
  | "azure"
  | "openrouter"
  | "local";

export const PROVIDERS: ReadonlyArray<{ choice: Choice; label: string }> = [
  { choice: "openai", label: "OpenAI" },
  { choice: "anthropic", label: "Anthropic" },
  { choice: "gemini", label: "Google Gemini (an API key from Google AI Studio)" },
  { choice: "vertex", label: "Vertex AI (Gemini and Claude on Google Cloud)" },
  { choice: "bedrock", label: "Amazon Bedrock (Claude, Nova, Llama, Mistral on AWS)" },
  { choice: "azure", label: "Azure OpenAI (a deployment of your resource)" },
  { choice: "openrouter", label: "OpenRouter" },
  { choice: "local", label: "An OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio) at a URL" },
];

/** Bedrock and Vertex sign with the cloud's own credentials: the setup asks no API key for them. */
export const KEYLESS: ReadonlySet<Choice> = new Set(["vertex", "bedrock"]);

/** The provider config.json names: a local server speaks the OpenAI wire. */
export function providerOf(choice: Choice): ProviderName {
  return choice === "local" ? "openai" : choice;
}

const CLAUDE_VERSIONS: Readonly<Record<string, string>> = {
  "claude-opus-4-5": "20251101",
  "claude-sonnet-4-5": "20250929",
  "claude-haiku-4-5": "20251001",
  "claude-opus-4-1": "20250805",
  "claude-sonnet-4": "20250514",
  "claude-3-7-sonnet": "20250219",
  "claude-3-5-haiku": "20241022",
};

// Bedrock's on-demand ids; a geography prefix (us., eu., apac.) makes them cross-region inference
// profiles, which the newer models require.
const BEDROCK_IDS: readonly string[] = [
  ...Object.entries(CLAUDE_VERSIONS).map(([n, v]) => `anthropic.${n}-${v}-v1:0`),
  "amazon.nova-premier-v1:0",
  "amazon.nova-pro-v1:0",
  "amazon.nova-lite-v1:0",
  "amazon.nova-micro-v1:0",
  "meta.llama4-maverick-17b-instruct-v1:0",
  "meta.llama3-3-70b-instruct-v1:0",
  "mistral.pixtral-large-2502-v1:0",
];

const OPENROUTER_IDS: readonly string[] = [
  "anthropic/claude-sonnet-4.5",
  "anthropic/claude-opus-4.5",
  "anthropic/claude-haiku-4.5",
  "openai/gpt-5",
  "openai/gpt-5-mini",
  "openai/gpt-4.1",
  "google/gemini-2.5-pro",
  "google/gemini-2.5-flash",
  "qwen/qwen3-coder",
  "deepseek/deepseek-r1",
  "meta-llama/llama-3.3-70b-instruct",
];

/** The inference-profile prefix of a region's geography, or "" where there is none. */
export function bedrockGeography(region: string | undefined): string {
  if (region?.startsWith("us-gov-")) return "us-gov.";
  const head = /^([a-z]{2})-/.exec(region ?? "")?.[1];
  return head === "us" || head === "eu" ? `${head}.` : head === "ap" ? "apac." : "";
}

// A table name the service itself spells differently.
const GEMINI_IDS: Readonly<Record<string, string>> = { "gemini-3-pro": "gemini-3-pro-preview" };

const openAiName = (n: string) => /^(gpt-[45]|o\d|codex)/.test(n);
const geminiNames = (names: string[]) =>
  names.filter((n) => n.startsWith("gemini")).map((n) => GEMINI_IDS[n] ?? n);

/** The models listed for a provider (the Bedrock ones with the region's inference-profile prefix). */
export function modelsFor(choice: Choice, region?: string): string[] {
  const names = Object.keys(MODEL_TABLE);
  const claude = names.filter((n) => n.startsWith("claude"));
  switch (choice) {
    case "anthropic":
      return claude;
    case "openai":
    case "azure":
      return names.filter(openAiName);
    case "gemini":
      return geminiNames(names);
    case "vertex":
      return [...geminiNames(names), ...Object.entries(CLAUDE_VERSIONS).map(([n, v]) => `${n}@${v}`)];
    case "bedrock":
      return BEDROCK_IDS.map((id) => `${bedrockGeography(region)}${id}`);
    case "openrouter":
      return [...OPENROUTER_IDS];
    case "local":
      // the open models: neither OpenAI's nor Anthropic's, nor served only by a cloud
      return names.filter((n) => !openAiName(n) && !n.startsWith("claude") && !(n in CLOUD_MODELS));
  }
}
