// The Anthropic Messages provider.
import { anthropicRequestBody } from "./anthropic-request.ts";
import { AnthropicDecoder } from "./anthropic-stream.ts";
import { type ProviderSettings, streamHeaders, streamModelRequest } from "./transport.ts";
import type { Provider } from "./types.ts";

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
  const headers = streamHeaders(settings, (apiKey) => ({ "x-api-key": apiKey }), {
    "anthropic-version": ANTHROPIC_VERSION,
  });
  const endpoint = { provider: "anthropic" as const, url: anthropicEndpoint(settings.baseUrl), headers };
  return {
    name: "anthropic",
    stream: (req, onEvent) =>
      streamModelRequest(settings, endpoint, req, anthropicRequestBody(req), onEvent, AnthropicDecoder),
  };
}
