// The Anthropic Messages provider.
import { anthropicRequestBody } from "./anthropic-request.ts";
import { AnthropicDecoder } from "./anthropic-stream.ts";
import { NO_KEY } from "./credentials.ts";
import { type ProviderSettings, streamWithRetry } from "./transport.ts";
import type { ModelRequest, ModelResponse, Provider, StreamEvent } from "./types.ts";

export const ANTHROPIC_DEFAULT_BASE = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

/** The messages URL; a base URL given with or without the trailing "/v1" both work. */
export function anthropicEndpoint(baseUrl = ANTHROPIC_DEFAULT_BASE): string {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, "");
  if (!path.endsWith("/v1/messages")) path = `${path.replace(/\/v1$/, "")}/v1/messages`;
  url.pathname = path;
  return url.toString();
}

export function createAnthropicProvider(settings: ProviderSettings): Provider {
  const url = anthropicEndpoint(settings.baseUrl);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    "anthropic-version": ANTHROPIC_VERSION,
    ...(settings.apiKey && settings.apiKey !== NO_KEY ? { "x-api-key": settings.apiKey } : {}),
    ...settings.headers,
  };
  return {
    name: "anthropic",
    stream(req: ModelRequest, onEvent?: (ev: StreamEvent) => void): Promise<ModelResponse> {
      const site = { provider: "anthropic" as const, model: req.model, apiKey: settings.apiKey };
      return streamWithRetry({
        site,
        url,
        headers,
        body: anthropicRequestBody(req),
        fetch: settings.fetch,
        retry: settings.retry,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(onEvent ? { onEvent } : {}),
        decoder: (emit) => new AnthropicDecoder(site, req.messages, emit),
      });
    },
  };
}
