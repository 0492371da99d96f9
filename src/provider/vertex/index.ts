// The Vertex AI provider: Gemini models at publishers/google (streamGenerateContent, the Gemini wire) and
// Anthropic's Claude at publishers/anthropic (streamRawPredict, the Messages wire with the model in the URL
// and Vertex's anthropic_version in the body), under a project and location, authorised by an OAuth
// access token from the Google credentials, fetched and refreshed per attempt.
import type { VertexConfig } from "../../contract/cloud-config.ts";
import { anthropicRequestBody } from "../anthropic-request.ts";
import { AnthropicDecoder } from "../anthropic-stream.ts";
import { geminiRequestText } from "../gemini/request-text.ts";
import { GeminiDecoder } from "../gemini/stream.ts";
import { JsonBytes, type ProviderSettings, streamModelRequest } from "../transport.ts";
import type { ModelRequest, Provider } from "../types.ts";
import { type GoogleCredentials, resolveGoogleCredentials } from "./google-credentials.ts";
import { GoogleTokenSource } from "./token.ts";

const encoder = new TextEncoder();

export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

export function vertexBase(location: string): string {
  return location === "global"
    ? "https://aiplatform.googleapis.com"
    : `https://${location}-aiplatform.googleapis.com`;
}

// Vertex names Claude versions "claude-sonnet-4-5@20250929": the @ stays as it is in the path.
export const isClaude = (model: string) => /^claude/i.test(model);

export function vertexUrl(
  base: string,
  g: Pick<GoogleCredentials, "project" | "location">,
  model: string,
): string {
  const url = new URL(base);
  const publisher = isClaude(model) ? "anthropic" : "google";
  const method = isClaude(model) ? "streamRawPredict" : "streamGenerateContent";
  url.pathname = `${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/projects/${encodeURIComponent(g.project)}/locations/${encodeURIComponent(g.location)}/publishers/${publisher}/models/${encodeURIComponent(model).replace(/%40/g, "@")}:${method}`;
  if (!isClaude(model)) url.search = "alt=sse";
  return url.toString();
}

function claudeBody(req: ModelRequest): Record<string, unknown> {
  const { model: _model, ...rest } = anthropicRequestBody(req);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}

export function createVertexProvider(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv,
  cfg: VertexConfig | undefined,
): Provider {
  const g = resolveGoogleCredentials(env, cfg);
  const base = settings.baseUrl ?? vertexBase(g.location);
  const tokens = new GoogleTokenSource(g.key, settings.fetch);
  const headers = { "content-type": "application/json", accept: "text/event-stream", ...settings.headers };
  const authorize = async () => ({ authorization: `Bearer ${await tokens.token()}` });
  return {
    name: "vertex",
    stream: (req, onEvent) => {
      const endpoint = {
        provider: "vertex" as const,
        url: vertexUrl(base, g, req.model),
        headers,
        authorize,
      };
      return isClaude(req.model)
        ? streamModelRequest(settings, endpoint, req, claudeBody(req), onEvent, AnthropicDecoder)
        : streamModelRequest(
            settings,
            endpoint,
            req,
            new JsonBytes(() => encoder.encode(geminiRequestText(req))),
            onEvent,
            GeminiDecoder,
          );
    },
  };
}
