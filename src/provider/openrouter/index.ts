// The OpenRouter provider: OpenAI's chat wire at openrouter.ai/api/v1 with OpenRouter's own parts — the
// attribution headers (HTTP-Referer, X-Title), reasoning (`reasoning.effort`; its `reasoning` deltas shown
// as reasoning), provider routing preferences (`provider`), and usage accounting (`usage.include`: the
// final chunk carries the request's cost in USD, which is reported as billed).
import type { OpenRouterConfig } from "../../contract/cloud-config.ts";
import { bearer, openAiEndpoint } from "../openai.ts";
import { openAiRequestBytes } from "../openai-request.ts";
import { OpenAiDecoder } from "../openai-stream.ts";
import { JsonBytes, type ProviderSettings, streamHeaders, streamModelRequest } from "../transport.ts";
import type { Provider } from "../types.ts";

export const OPENROUTER_DEFAULT_BASE = "https://openrouter.ai/api/v1";

export function openRouterHeaders(cfg: OpenRouterConfig = {}): Record<string, string> {
  return { ...(cfg.app_url ? { "HTTP-Referer": cfg.app_url } : {}), "X-Title": cfg.app_title ?? "i" };
}

export function openRouterExtra(cfg: OpenRouterConfig = {}): Record<string, unknown> {
  const extra: Record<string, unknown> = { usage: { include: true } };
  if (cfg.reasoning_effort) extra.reasoning = { effort: cfg.reasoning_effort };
  if (cfg.routing && Object.keys(cfg.routing).length > 0) extra.provider = cfg.routing;
  return extra;
}

export function createOpenRouterProvider(
  settings: ProviderSettings,
  cfg: OpenRouterConfig | undefined,
): Provider {
  const url = openAiEndpoint(settings.baseUrl ?? OPENROUTER_DEFAULT_BASE);
  const headers = streamHeaders(settings, bearer, openRouterHeaders(cfg));
  const extra = openRouterExtra(cfg);
  return {
    name: "openrouter",
    stream: (req, onEvent) =>
      streamModelRequest(
        settings,
        { provider: "openrouter", url, headers },
        req,
        new JsonBytes(() => openAiRequestBytes(req, { useMaxCompletionTokens: false, extra })),
        onEvent,
        OpenAiDecoder,
      ),
  };
}
