// The OpenAI Responses provider. The core keeps what it keeps for every wire — credentials, transport, SSE,
// retries, cancellation, error classification, tool-call id repair — while the responses module shapes the
// request body (wire_request) and reads the final response (wire_response).
import { UserError } from "../contract/errors.ts";
import type { HookRunner } from "../worker/types.ts";
import { bearer, openAiEndpoint } from "./openai.ts";
import { ResponsesDecoder } from "./responses-stream.ts";
import { hasWireHooks, wireRequestBody, wireResponse } from "./responses-wire.ts";
import { type Endpoint, type ProviderSettings, streamHeaders, streamModelRequest } from "./transport.ts";
import type { Provider } from "./types.ts";

export const RESPONSES_MODULE_MISSING =
  "--provider responses needs the responses module: use --profile full, responses-compact or responses-budget";

/**
 * Refuses, before any HTTP, a manifest without a module for wire_request and wire_response: without them
 * there is no way to build the request.
 */
export function createResponsesProvider(
  settings: ProviderSettings,
  hooks: HookRunner | undefined,
  /** another cloud's Responses endpoint (Azure): its URL, headers and name */
  at?: Endpoint,
): Provider {
  if (!hooks || !hasWireHooks(hooks)) throw new UserError(RESPONSES_MODULE_MISSING);
  const endpoint = at ?? {
    provider: "responses" as const,
    url: openAiEndpoint(settings.baseUrl, "/responses"),
    headers: streamHeaders(settings, bearer),
  };
  return {
    name: endpoint.provider,
    async stream(req, onEvent) {
      const body = await wireRequestBody(hooks, req);
      const streamed = await streamModelRequest(settings, endpoint, req, body, onEvent, ResponsesDecoder);
      return wireResponse(hooks, req, streamed.response);
    },
  };
}
