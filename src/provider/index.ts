// The one way the core gets a Provider for a wire format.

import type { CloudSettings } from "../contract/cloud-config.ts";
import type { ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { credentialEnv } from "../runtime/credential-handoff.ts";
import type { HookRunner } from "../worker/types.ts";
import { createAnthropicProvider } from "./anthropic.ts";
import { createAzureProvider } from "./azure/index.ts";
import { baseUrlProblem } from "./base-url.ts";
import { createBedrockProvider } from "./bedrock/index.ts";
import { createGeminiProvider } from "./gemini/index.ts";
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from "./idle.ts";
import { createOpenAiProvider } from "./openai.ts";
import { createOpenRouterProvider } from "./openrouter/index.ts";
import { createResponsesProvider } from "./responses.ts";
import { DEFAULT_RETRY, type Sleep } from "./retry.ts";
import type { ProviderSettings } from "./transport.ts";
import type { Provider } from "./types.ts";
import { createVertexProvider } from "./vertex/index.ts";

export interface CreateProviderOptions {
  provider: ProviderName;
  /** from resolveApiKey; NO_KEY for a local server that needs none */
  apiKey: string;
  /** default: https://api.openai.com/v1 or https://api.anthropic.com */
  baseUrl?: string;
  /** attempts after the first on 429/5xx/network errors (default 4; 2 for a refused local server) */
  maxRetries?: number;
  /** first backoff window in ms, doubling per attempt (default 1000; tests use a few ms) */
  retryBaseMs?: number;
  /** cap on any single wait (default 30000); a retry-after above it is not waited for: the error is thrown */
  retryMaxMs?: number;
  /** cap on all the waits of one request together (default 60000) */
  retryTotalMs?: number;
  /** how to wait between attempts (default a real timer; tests record the waits) */
  sleep?: Sleep;
  /** give up on an attempt that receives nothing for this long, then retry once (default 300000) */
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /**
   * `responses` only: the worker hooks that shape the wire (wire_request/wire_response). Without a module
   * declaring both, createProvider throws a UserError naming the profiles that have one.
   */
  hooks?: HookRunner;
  /** config.json's cloud sections (region, profile, project, deployment, routing…) */
  cloud?: CloudSettings;
  /** where cloud credentials and settings are read (default: the credentials `i` holds, and process.env) */
  env?: NodeJS.ProcessEnv;
}

export function createProvider(opts: CreateProviderOptions): Provider {
  const problem = opts.baseUrl === undefined ? undefined : baseUrlProblem(opts.baseUrl);
  if (problem) throw new UserError(`${problem}; give one like http://localhost:11434/v1`);
  const settings: ProviderSettings = {
    apiKey: opts.apiKey,
    retry: {
      maxRetries: opts.maxRetries ?? DEFAULT_RETRY.maxRetries,
      baseMs: opts.retryBaseMs ?? DEFAULT_RETRY.baseMs,
      maxDelayMs: opts.retryMaxMs ?? DEFAULT_RETRY.maxDelayMs,
      maxTotalMs: opts.retryTotalMs ?? DEFAULT_RETRY.maxTotalMs,
    },
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    fetch: opts.fetch ?? globalThis.fetch,
    headers: opts.headers ?? {},
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
  };
  switch (opts.provider) {
    case "openai":
      return createOpenAiProvider(settings);
    case "anthropic":
      return createAnthropicProvider(settings);
    case "responses":
      return createResponsesProvider(settings, opts.hooks);
    case "gemini":
      return createGeminiProvider(settings);
    case "bedrock":
      return createBedrockProvider(settings, opts.env ?? credentialEnv(), opts.cloud?.bedrock);
    case "azure":
      return createAzureProvider(settings, opts.env ?? credentialEnv(), opts.cloud?.azure, opts.hooks);
    case "openrouter":
      return createOpenRouterProvider(settings, opts.cloud?.openrouter);
    case "vertex":
      return createVertexProvider(settings, opts.env ?? credentialEnv(), opts.cloud?.vertex);
  }
}

export { NO_KEY, resolveApiKey } from "./credentials.ts";
export { lookupModel, type ResolvedModel, resolveModel } from "./models.ts";
export { RESPONSES_MODULE_MISSING } from "./responses.ts";
export * from "./types.ts";
