// What the responses module reads: the hook data the core sends, the Responses API's final response object,
// and its own private state in `message.adapter.responses`. The API's objects are loose — it adds fields
// over time and the module must keep what it does not know — so only the fields read here are named.
import { z } from "zod";
import { WireResponseData as ContractWireResponseData } from "../../src/contract/hooks.ts";

/** One output item as the API returns it (message, function_call, reasoning, or a type added later). */
export const OutputItem = z.looseObject({ type: z.string() });
export type OutputItem = z.infer<typeof OutputItem>;

export const MessageItem = z.lazy(() =>
  z.looseObject({
    type: z.literal("message"),
    content: z.array(
      z.looseObject({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() }),
    ),
  }),
);

export const FunctionCallItem = z.lazy(() =>
  z.looseObject({
    type: z.literal("function_call"),
    call_id: z.string().nullish(),
    name: z.string().nullish(),
    arguments: z.string().nullish(),
  }),
);

export const ReasoningItem = z.lazy(() =>
  z.looseObject({
    type: z.literal("reasoning"),
    encrypted_content: z.string().nullish(),
  }),
);

export const ResponseObject = z.lazy(() =>
  z.looseObject({
    status: z.string().nullish(),
    output: z.array(OutputItem).nullish(),
    usage: z
      .looseObject({
        input_tokens: z.number().int().nonnegative(),
        output_tokens: z.number().int().nonnegative(),
        input_tokens_details: z
          .looseObject({ cached_tokens: z.number().int().nonnegative().nullish() })
          .nullish(),
      })
      .nullish(),
    incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  }),
);
export type ResponseObject = z.infer<typeof ResponseObject>;

/** `wire_response` data with the response object read as this module reads it. */
export const WireResponseData = z.lazy(() =>
  ContractWireResponseData.unwrap().extend({ response: ResponseObject }),
);

/** The module's private state on an assistant message: the output items, kept to replay reasoning. */
export const ResponsesAdapter = z.looseObject({ items: z.array(OutputItem) });
