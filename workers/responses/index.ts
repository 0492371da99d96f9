// The built-in `responses` module: shapes the OpenAI Responses wire format for the core. On `wire_request`
// it adds the request `body` built from the history and tools; on `wire_response` it adds the assistant
// `message`, `usage` and `stop` read from the final response object. Every other field comes back unchanged.
import type { z } from "zod";
import { defineWorkerModule } from "../sdk/module.ts";
import { replyFromResponse } from "./reply.ts";
import { requestBody } from "./request.ts";
import { WireRequestData, WireResponseData } from "./schemas.ts";

function parseData<S extends z.ZodType>(event: string, schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${event}: invalid data at ${issue?.path.join(".") || "(top)"}: ${issue?.message}`);
  }
  return parsed.data;
}

export const responsesModule = defineWorkerModule({
  name: "responses",
  hooks: {
    wire_request: (data, ctx) => {
      const req = parseData("wire_request", WireRequestData, data);
      return { ...data, body: requestBody(req, ctx.log) };
    },
    wire_response: (data) => {
      const { response } = parseData("wire_response", WireResponseData, data);
      return { ...data, ...replyFromResponse(response) };
    },
  },
});
