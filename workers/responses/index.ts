// The built-in `responses` module: shapes the OpenAI Responses wire format for the core. On `wire_request`
// it adds the request `body` built from the history and tools; on `wire_response` it adds the assistant
// `message`, `usage` and `stop` read from the final response object. Every other field comes back unchanged.
import { WireRequestData } from "../../src/contract/hooks.ts";
import { parseHookData } from "../sdk/hook-data.ts";
import { defineWorkerModule } from "../sdk/module.ts";
import { replyFromResponse } from "./reply.ts";
import { requestBody } from "./request.ts";
import { WireResponseData } from "./schemas.ts";

export const responsesModule = defineWorkerModule({
  name: "responses",
  hooks: {
    wire_request: (data, ctx) => {
      const req = parseHookData("wire_request", WireRequestData, data);
      return { ...data, body: requestBody(req, ctx.log) };
    },
    wire_response: (data) => {
      const { response } = parseHookData("wire_response", WireResponseData, data);
      return { ...data, ...replyFromResponse(response) };
    },
  },
});
