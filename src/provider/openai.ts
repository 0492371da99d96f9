// The OpenAI Chat Completions provider: api.openai.com or any compatible server (Ollama, llama.cpp, vLLM,
// LM Studio, OpenRouter) through its base URL.
import { openAiRequestBytes } from "./openai-request.ts";
import { OpenAiDecoder } from "./openai-stream.ts";
import { JsonBytes, type ProviderSettings, streamHeaders, streamModelRequest } from "./transport.ts";
import type { Provider } from "./types.ts";

export const OPENAI_DEFAULT_BASE = "https://api.openai.com/v1";

/**
 * The URL of `route` (chat completions by default, or the Responses API) under an OpenAI-style base URL.
 * A base URL that is just an origin ("http://localhost:11434") gets the conventional "/v1", the most
 * common slip when pointing at a local server.
 */
export function openAiEndpoint(baseUrl = OPENAI_DEFAULT_BASE, route = "/chat/completions"): string {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, "");
  if (path === "") path = "/v1";
  if (!path.endsWith(route)) path += route;
  url.pathname = path;
  return url.toString();
}

/** The credential header of the OpenAI APIs (Chat Completions and Responses). */
export const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

export function createOpenAiProvider(settings: ProviderSettings): Provider {
  const url = openAiEndpoint(settings.baseUrl);
  const official = new URL(url).hostname === "api.openai.com";
  const endpoint = { provider: "openai" as const, url, headers: streamHeaders(settings, bearer) };
  return {
    name: "openai",
    stream: (req, onEvent) =>
      streamModelRequest(
        settings,
        endpoint,
        req,
        // The bytes kept per history and extended: not the whole history serialised again per request.
        new JsonBytes(() => openAiRequestBytes(req, { useMaxCompletionTokens: official })),
        onEvent,
        OpenAiDecoder,
      ),
  };
}
