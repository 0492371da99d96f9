// The Azure OpenAI provider: a resource's deployments, reached at
// {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=… (Chat Completions) or
// {endpoint}/openai/v1/responses (the Responses API, shaped by the responses module), with an `api-key`
// header or an Entra ID bearer token. The wire itself is OpenAI's: the same request bytes and decoders.
import type { AzureConfig } from "../../contract/cloud-config.ts";
import { UserError } from "../../contract/errors.ts";
import type { HookRunner } from "../../worker/types.ts";
import { ENTRA_PREFIX } from "../cloud-credentials.ts";
import { NO_KEY } from "../credentials.ts";
import { openAiRequestBytes } from "../openai-request.ts";
import { OpenAiDecoder } from "../openai-stream.ts";
import { createResponsesProvider } from "../responses.ts";
import { JsonBytes, type ProviderSettings, streamModelRequest } from "../transport.ts";
import type { Provider } from "../types.ts";

/** The GA version of the data-plane API that has everything the chat wire uses. */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

export interface AzureTarget {
  endpoint: string;
  apiVersion: string;
  deployment?: string;
  wire: "chat" | "responses";
}

/** Endpoint, version, deployment and wire from --base-url, the environment and config.json. */
export function azureTarget(
  settings: Pick<ProviderSettings, "baseUrl">,
  env: NodeJS.ProcessEnv,
  cfg: AzureConfig = {},
): AzureTarget {
  const endpoint = settings.baseUrl ?? (env.AZURE_OPENAI_ENDPOINT?.trim() || cfg.endpoint);
  if (!endpoint) {
    throw new UserError(
      'azure: no endpoint: set AZURE_OPENAI_ENDPOINT (like https://NAME.openai.azure.com), "azure": {"endpoint": …} in config.json, or --base-url',
    );
  }
  return {
    endpoint,
    apiVersion: env.OPENAI_API_VERSION?.trim() || cfg.api_version || AZURE_DEFAULT_API_VERSION,
    ...(cfg.deployment ? { deployment: cfg.deployment } : {}),
    wire: cfg.wire ?? "chat",
  };
}

/** The resource's root: a base URL given with "/openai" (or "/openai/v1") works too. */
function root(endpoint: string): URL {
  const url = new URL(endpoint);
  url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/openai(\/v1)?$/, "");
  url.search = "";
  return url;
}

export function azureChatUrl(t: AzureTarget, model: string): string {
  const url = root(t.endpoint);
  url.pathname = `${url.pathname}/openai/deployments/${encodeURIComponent(t.deployment ?? model)}/chat/completions`;
  url.searchParams.set("api-version", t.apiVersion);
  return url.toString();
}

export function azureResponsesUrl(t: AzureTarget): string {
  const url = root(t.endpoint);
  url.pathname = `${url.pathname}/openai/v1/responses`;
  return url.toString();
}

/** `api-key` for a key; `Authorization: Bearer` for an Entra ID token (AZURE_OPENAI_AD_TOKEN). */
export function azureCredential(apiKey: string): Record<string, string> {
  if (apiKey === NO_KEY || apiKey === "") return {};
  if (apiKey.startsWith(ENTRA_PREFIX))
    return { authorization: `Bearer ${apiKey.slice(ENTRA_PREFIX.length)}` };
  return { "api-key": apiKey };
}

export function createAzureProvider(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv,
  cfg: AzureConfig | undefined,
  hooks: HookRunner | undefined,
): Provider {
  const t = azureTarget(settings, env, cfg);
  const key = settings.apiKey.startsWith(ENTRA_PREFIX)
    ? settings.apiKey.slice(ENTRA_PREFIX.length)
    : settings.apiKey;
  const scrubbed = { ...settings, apiKey: key };
  const headers = {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...azureCredential(settings.apiKey),
    ...settings.headers,
  };
  if (t.wire === "responses") {
    // The v1 Responses API names the deployment in the body's `model`.
    const inner = createResponsesProvider(scrubbed, hooks, {
      provider: "azure",
      url: azureResponsesUrl(t),
      headers,
    });
    return {
      name: "azure",
      stream: (req, onEvent) => inner.stream({ ...req, model: t.deployment ?? req.model }, onEvent),
    };
  }
  return {
    name: "azure",
    stream: (req, onEvent) =>
      streamModelRequest(
        scrubbed,
        { provider: "azure", url: azureChatUrl(t, req.model), headers },
        req,
        new JsonBytes(() => openAiRequestBytes(req, { useMaxCompletionTokens: true })),
        onEvent,
        OpenAiDecoder,
      ),
  };
}
