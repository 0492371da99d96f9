// Where to put prompt-cache breakpoints. Providers that cache prompt prefixes automatically (OpenAI Chat
// Completions and Responses) need nothing; Anthropic caches only up to explicitly marked blocks, at most four.
import { MODULES } from "../../src/contract/registry.ts";

/** Providers whose API caches a prompt only up to explicit breakpoints (the registry says, for the core too). */
export const EXPLICIT_CACHE_PROVIDERS: readonly string[] = MODULES.cache.requestProviders ?? [];

/**
 * History indexes to mark: the system message (tools and system text form the stable prefix) and the end of
 * each of the last two user turns. A turn is a run of consecutive user/tool messages — the wire format sends
 * it as one user message — so marking its last message caches everything before it. Marking the previous turn
 * as well as the newest one lets this request read the cache the previous request wrote.
 */
export function cacheBreakpoints(roles: readonly string[]): number[] {
  const marks: number[] = [];
  if (roles[0] === "system") marks.push(0);
  const turnEnds: number[] = [];
  for (let i = roles.length - 1; i >= 1 && turnEnds.length < 2; i--) {
    const isUserSide = roles[i] === "user" || roles[i] === "tool";
    const nextIsUserSide = roles[i + 1] === "user" || roles[i + 1] === "tool";
    if (isUserSide && !nextIsUserSide) turnEnds.push(i);
  }
  return [...marks, ...turnEnds.reverse()];
}
