// The OpenAI Chat Completions provider: api.openai.com or any compatible server (Ollama, llama.cpp, vLLM,
// LM Studio, OpenRouter) through its base URL.
import { NO_KEY } from "./credentials.ts";
import { openAiRequestBody } from "./openai-request.ts";
import { OpenAiDecoder } from "./openai-stream.ts";
import { type ProviderSettings, streamWithRetry } from "./transport.ts";
import type { ModelRequest, ModelResponse, Provider, StreamEvent } from "./types.ts";

export const OPENAI_DEFAULT_BASE = "https://api.openai.com/v1";

/**
 * The chat completions URL. A base URL that is just an origin ("http://localhost:11434") gets the
 * conventional "/v1", the most common slip when pointing at a local server.
 */
export function openAiEndpoint(baseUrl = OPENAI_DEFAULT_BASE): string {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, "");
  if (path === "") path = "/v1";
  if (!path.endsWith("/chat/completions")) path += "/chat/completions";
  url.pathname = path;
  return url.toString();
}

export function createOpenAiProvider(settings: ProviderSettings): Provider {
  const url = openAiEndpoint(settings.baseUrl);
  const official = new URL(url).hostname === "api.openai.com";
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...(settings.apiKey && settings.apiKey !== NO_KEY ? { authorization: `Bearer ${settings.apiKey}` } : {}),
    ...settings.headers,
  };
  return {
    name: "openai",
    stream(req: ModelRequest, onEvent?: (ev: StreamEvent) => void): Promise<ModelResponse> {
      const site = { provider: "openai" as const, model: req.model, apiKey: settings.apiKey };
      return streamWithRetry({
        site,
        url,
        headers,
        body: openAiRequestBody(req, { useMaxCompletionTokens: official }),
        fetch: settings.fetch,
        retry: settings.retry,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(onEvent ? { onEvent } : {}),
        decoder: (emit) => new OpenAiDecoder(site, req.messages, emit),
      });
    },
  };
}
