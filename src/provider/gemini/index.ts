// The Google Gemini API provider (generativelanguage.googleapis.com): streamGenerateContent over SSE with
// the key in x-goog-api-key (never in the URL, where proxies log it).
import { JsonBytes, type ProviderSettings, streamHeaders, streamModelRequest } from "../transport.ts";
import type { Provider } from "../types.ts";
import { geminiRequestText } from "./request-text.ts";
import { GeminiDecoder } from "./stream.ts";

const encoder = new TextEncoder();

export const GEMINI_DEFAULT_BASE = "https://generativelanguage.googleapis.com";

/** The streaming URL of `model`; a base URL with or without "/v1beta" both work. */
export function geminiEndpoint(model: string, baseUrl = GEMINI_DEFAULT_BASE): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1beta$/, "");
  url.pathname = `${path}/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent`;
  url.search = "alt=sse";
  return url.toString();
}

export function createGeminiProvider(settings: ProviderSettings): Provider {
  const headers = streamHeaders(settings, (key) => ({ "x-goog-api-key": key }));
  return {
    name: "gemini",
    stream: (req, onEvent) =>
      streamModelRequest(
        settings,
        { provider: "gemini", url: geminiEndpoint(req.model, settings.baseUrl), headers },
        req,
        new JsonBytes(() => encoder.encode(geminiRequestText(req))),
        onEvent,
        GeminiDecoder,
      ),
  };
}
