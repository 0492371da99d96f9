// The models a provider says it serves (GET /v1/models), for the console's /model picker: asked once per
// picker, bounded in time, and optional — a server that does not answer (or answers something else) just
// adds nothing to the list. The key goes only to the provider's own endpoint, as for a request.

import type { ProviderName } from "../contract/config.ts";
import { ANTHROPIC_DEFAULT_BASE, ANTHROPIC_VERSION } from "./anthropic.ts";
import { GEMINI_DEFAULT_BASE } from "./gemini/index.ts";
import { bearer, OPENAI_DEFAULT_BASE, openAiEndpoint } from "./openai.ts";
import { OPENROUTER_DEFAULT_BASE } from "./openrouter/index.ts";

export const MODEL_LIST_TIMEOUT_MS = 3000;
const MAX_MODELS = 500;

export interface ModelListTarget {
  provider: ProviderName;
  apiKey: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** Providers whose list is not a plain GET with the key (signed, per deployment): /model shows the table. */
const UNLISTED = new Set<ProviderName>(["bedrock", "vertex", "azure"]);

function modelsUrl(t: ModelListTarget): string {
  if (t.provider === "gemini") {
    const url = new URL(t.baseUrl ?? GEMINI_DEFAULT_BASE);
    url.pathname = `${url.pathname.replace(/\/+$/, "").replace(/\/v1beta$/, "")}/v1beta/models`;
    url.search = "pageSize=200";
    return url.toString();
  }
  if (t.provider === "openrouter") return openAiEndpoint(t.baseUrl ?? OPENROUTER_DEFAULT_BASE, "/models");
  if (t.provider === "anthropic") {
    const url = new URL(t.baseUrl ?? ANTHROPIC_DEFAULT_BASE);
    url.pathname = `${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/models`;
    return url.toString();
  }
  return openAiEndpoint(t.baseUrl ?? OPENAI_DEFAULT_BASE, "/models");
}

/** The ids the provider lists, sorted; [] when it does not answer in time or with a list. */
export async function listProviderModels(t: ModelListTarget): Promise<string[]> {
  if (UNLISTED.has(t.provider)) return [];
  const headers: Record<string, string> =
    t.provider === "anthropic"
      ? { "x-api-key": t.apiKey, "anthropic-version": ANTHROPIC_VERSION }
      : t.provider === "gemini"
        ? { "x-goog-api-key": t.apiKey }
        : bearer(t.apiKey);
  try {
    const res = await (t.fetch ?? fetch)(modelsUrl(t), {
      headers,
      signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS),
    });
    if (!res.ok) return [];
    const body = (await res.json()) as { data?: unknown; models?: unknown };
    // Gemini lists {"models":[{"name":"models/gemini-2.5-pro"}]}; the others {"data":[{"id":…}]}.
    const list = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : undefined;
    if (!list) return [];
    const ids = list
      .map((m) => {
        if (!m || typeof m !== "object") return undefined;
        const o = m as { id?: unknown; name?: unknown };
        return typeof o.id === "string"
          ? o.id
          : typeof o.name === "string"
            ? o.name.replace(/^models\//, "")
            : undefined;
      })
      .filter((id): id is string => typeof id === "string" && id !== "" && id.length <= 200);
    return [...new Set(ids)].sort().slice(0, MAX_MODELS);
  } catch {
    return [];
  }
}
