// Words our final error lines always carry for the failures a harness retries or reports differently:
// evaluation harnesses (Harbor's retry classifier among them) match them in an agent's output, so they
// are part of the contract and never reworded (test/provider/error-phrases.test.ts holds them).
export const RATE_LIMIT_PHRASE = "rate limit reached";
export const OVERLOADED_PHRASE = "the provider is overloaded";
export const NOT_LOGGED_IN_PHRASE = "not logged in";

/** A 529, or a body or stream error that says so (Anthropic's overloaded_error). */
export function isOverloaded(status: number | undefined, body: string): boolean {
  return status === 529 || /overloaded/i.test(body);
}
