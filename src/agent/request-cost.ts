// What one model request cost: its tokens at the list price of the model that served it.
import type { Usage } from "../contract/usage.ts";

export type Price = { input: number; output: number } | undefined;

/** One request's cost in USD at `price` (per million tokens); undefined without a price. */
export function requestCost(u: Usage, price: Price): number | undefined {
  return price ? (u.input_tokens * price.input + (u.output_tokens ?? 0) * price.output) / 1e6 : undefined;
}
