// What one model request cost: what the provider billed when it says (OpenRouter), else its tokens at the
// list price of the model that served it, the cached part of the prompt at the cache's own prices where
// the model table has them (reads from and writes to the cache are billed apart from fresh input).
import type { ModelInfo } from "../contract/config.ts";
import type { Usage } from "../contract/usage.ts";

export type Price = ModelInfo["price"];

type Counted = Pick<Usage, "input_tokens" | "output_tokens"> &
  Partial<Pick<Usage, "cache_read_tokens" | "cache_write_tokens" | "cost_usd">>;

/** One request's cost in USD: as billed, else at `price` (per million tokens); undefined without either. */
export function requestCost(u: Counted, price: Price): number | undefined {
  if (u.cost_usd !== undefined) return u.cost_usd;
  if (!price) return undefined;
  // input_tokens is the whole prompt: the cached parts are in it.
  const read = u.cache_read_tokens ?? 0;
  const write = u.cache_write_tokens ?? 0;
  const fresh = Math.max(0, u.input_tokens - read - write);
  const input =
    fresh * price.input +
    read * (price.cache_read ?? price.input) +
    write * (price.cache_write ?? price.input);
  return (input + (u.output_tokens ?? 0) * price.output) / 1e6;
}
