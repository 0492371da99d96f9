// What one model reply cost and why it stopped: reported by every wire format (and by the wire_response
// hook for the Responses wire), summed per run and shown in the `--json` stream's `done` event.
import { z } from "zod";

const Tokens = z.number().int().nonnegative();

export const Usage = z.lazy(() =>
  z.strictObject({
    /** the whole prompt, cached parts included (what the context window holds) */
    input_tokens: Tokens,
    output_tokens: Tokens,
    cache_read_tokens: Tokens.optional(),
    cache_write_tokens: Tokens.optional(),
    /** what the provider billed for the request, in USD, when it says (OpenRouter): used over list prices */
    cost_usd: z.number().nonnegative().optional(),
  }),
);
export type Usage = z.infer<typeof Usage>;

/** end: the model finished; tool_calls: it wants tools run; length: it hit its output limit. */
export const StopReason = z.enum(["end", "tool_calls", "length", "other"]);
export type StopReason = z.infer<typeof StopReason>;
