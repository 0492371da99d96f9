// What to do about a failed request, per provider: which credential to check, and the few failures whose
// cause a person cannot guess from the server's words (a skewed clock under SigV4, a Gemini key refused
// with a 400, an Azure deployment that does not exist).
import type { ProviderName } from "../contract/config.ts";
import { NOT_LOGGED_IN_PHRASE, OVERLOADED_PHRASE, RATE_LIMIT_PHRASE } from "./error-phrases.ts";
import type { ProviderErrorKind } from "./types.ts";

const AUTH: Record<ProviderName, string> = {
  openai: 'check the API key: I_API_KEY or OPENAI_API_KEY, or "openai" in auth.json',
  responses: 'check the API key: I_API_KEY or OPENAI_API_KEY, or "responses" in auth.json',
  anthropic: 'check the API key: I_API_KEY or ANTHROPIC_API_KEY, or "anthropic" in auth.json',
  gemini: 'check the API key: GEMINI_API_KEY or GOOGLE_API_KEY, or "gemini" in auth.json',
  azure:
    'check the key or token: AZURE_OPENAI_API_KEY, AZURE_OPENAI_AD_TOKEN, or "azure" in auth.json, and that it belongs to this endpoint',
  openrouter: 'check the API key: OPENROUTER_API_KEY, or "openrouter" in auth.json',
  bedrock:
    "check the AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE), that a session token has not expired, and that the IAM identity may call bedrock:InvokeModelWithResponseStream",
  vertex:
    "check the Google credentials (GOOGLE_APPLICATION_CREDENTIALS or `gcloud auth application-default login`) and that the account has the Vertex AI User role in this project",
};

const NOT_FOUND: Partial<Record<ProviderName, string>> = {
  azure:
    "check the deployment name (config.json azure.deployment, default the model name) and AZURE_OPENAI_ENDPOINT",
  bedrock:
    "check the model id and that this region offers it (AWS_REGION); some models need an inference profile id like us.anthropic.…",
  vertex: "check the model name and that GOOGLE_CLOUD_LOCATION offers it",
};

/** A 400 or 403 that is really about credentials or the clock, by the server's own words. */
export function kindFromWording(body: string): ProviderErrorKind | undefined {
  const lower = body.toLowerCase();
  if (/api_key_invalid|api key not valid|api key expired/.test(lower)) return "auth";
  return undefined;
}

export function isClockSkew(body: string): boolean {
  return /signature expired|signature not yet current|request time.{0,40}too (large|skewed)|requesttimetooskewed/i.test(
    body,
  );
}

/** The fix named after a failed request; the fixed phrases (error-phrases.ts) lead where a harness matches them. */
export function fixFor(
  kind: ProviderErrorKind,
  provider: ProviderName,
  body: string,
  overloaded = false,
): string | undefined {
  if (kind === "auth" && isClockSkew(body))
    return "this machine's clock is off; sync it (e.g. `sudo timedatectl set-ntp true`): SigV4 allows 5 minutes";
  if (kind === "auth") return `${NOT_LOGGED_IN_PHRASE} (the credentials were refused): ${AUTH[provider]}`;
  if (kind === "rate_limit") return `${RATE_LIMIT_PHRASE}: wait, then run again`;
  if (overloaded) return `${OVERLOADED_PHRASE}: run again later`;
  if (
    kind === "bad_request" &&
    /model identifier is invalid|on-demand throughput isn.t supported/i.test(body)
  )
    return NOT_FOUND.bedrock;
  if (kind === "not_found")
    return NOT_FOUND[provider] ?? "check the model name and that this endpoint serves it";
  return undefined;
}
