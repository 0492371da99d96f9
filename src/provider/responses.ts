// The OpenAI Responses provider. The core keeps what it keeps for every wire — credentials, transport, SSE,
// retries, cancellation, error classification, tool-call id repair — while the responses module shapes the
// request body (wire_request) and reads the final response (wire_response).
import { UserError } from "../cli/errors.ts";
import type { HookRunner } from "../worker/types.ts";
import { NO_KEY } from "./credentials.ts";
import { OPENAI_DEFAULT_BASE } from "./openai.ts";
import { ResponsesDecoder, type ResponsesStreamResult } from "./responses-stream.ts";
import { hasWireHooks, wireRequestBody, wireResponse } from "./responses-wire.ts";
import { type ProviderSettings, streamWithRetry } from "./transport.ts";
import type { ModelRequest, ModelResponse, Provider, StreamEvent } from "./types.ts";

export const RESPONSES_MODULE_MISSING =
  "--provider responses needs the responses module: use --profile full, responses-compact or responses-budget";

/** The responses URL; an origin-only base URL gets the conventional "/v1" (as for Chat Completions). */
export function responsesEndpoint(baseUrl = OPENAI_DEFAULT_BASE): string {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, "");
  if (path === "") path = "/v1";
  if (!path.endsWith("/responses")) path += "/responses";
  url.pathname = path;
  return url.toString();
}

/**
 * Refuses, before any HTTP, a manifest without a module for wire_request and wire_response: without them
 * there is no way to build the request.
 */
export function createResponsesProvider(settings: ProviderSettings, hooks: HookRunner | undefined): Provider {
  if (!hooks || !hasWireHooks(hooks)) throw new UserError(RESPONSES_MODULE_MISSING);
  const url = responsesEndpoint(settings.baseUrl);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...(settings.apiKey && settings.apiKey !== NO_KEY ? { authorization: `Bearer ${settings.apiKey}` } : {}),
    ...settings.headers,
  };
  return {
    name: "responses",
    async stream(req: ModelRequest, onEvent?: (ev: StreamEvent) => void): Promise<ModelResponse> {
      const site = { provider: "responses" as const, model: req.model, apiKey: settings.apiKey };
      const body = await wireRequestBody(hooks, req);
      const streamed: ResponsesStreamResult = await streamWithRetry({
        site,
        url,
        headers,
        body,
        fetch: settings.fetch,
        retry: settings.retry,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(onEvent ? { onEvent } : {}),
        decoder: (emit) => new ResponsesDecoder(site, req.messages, emit),
      });
      return wireResponse(hooks, req, streamed.response);
    },
  };
}
