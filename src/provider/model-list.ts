// The models a provider says it serves (GET /v1/models), for the console's /model picker: asked once per
// picker, bounded in time, and optional — a server that does not answer (or answers something else) just
// adds nothing to the list. The key goes only to the provider's own endpoint, as for a request.

import type { ProviderName } from "../contract/config.ts";
import { ANTHROPIC_DEFAULT_BASE, ANTHROPIC_VERSION } from "./anthropic.ts";
import { bearer, OPENAI_DEFAULT_BASE, openAiEndpoint } from "./openai.ts";

export const MODEL_LIST_TIMEOUT_MS = 3000;
const MAX_MODELS = 500;

export interface ModelListTarget {
  provider: ProviderName;
  apiKey: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

function modelsUrl(t: ModelListTarget): string {
  if (t.provider === "anthropic") {
    const url = new URL(t.baseUrl ?? ANTHROPIC_DEFAULT_BASE);
    url.pathname = `${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/models`;
    return url.toString();
  }
  return openAiEndpoint(t.baseUrl ?? OPENAI_DEFAULT_BASE, "/models");
}

/** The ids the provider lists, sorted; [] when it does not answer in time or with a list. */
export async function listProviderModels(t: ModelListTarget): Promise<string[]> {
  const headers: Record<string, string> =
    t.provider === "anthropic"
      ? { "x-api-key": t.apiKey, "anthropic-version": ANTHROPIC_VERSION }
      : bearer(t.apiKey);
  try {
    const res = await (t.fetch ?? fetch)(modelsUrl(t), {
      headers,
      signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS),
    });
    if (!res.ok) return [];
    const body = (await res.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return [];
    const ids = body.data
      .map((m) => (m && typeof m === "object" ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === "string" && id !== "" && id.length <= 200);
    return [...new Set(ids)].sort().slice(0, MAX_MODELS);
  } catch {
    return [];
  }
}
