// The six profiles a plugins.json may name. Membership is public; order follows the registry (pipeline order).
import { MODULE_NAMES, type ModuleName } from "./registry.ts";

const STANDARD: ModuleName[] = [
  "budget",
  "compact",
  "prompts",
  "skills",
  "memory",
  "cache",
  "search",
  "mcp",
  "hooks",
  "agents",
  "plan",
  "lsp",
];

const PROFILE_MEMBERS: Record<string, ModuleName[]> = {
  standard: STANDARD,
  full: [...STANDARD, "web", "responses"],
  compact: ["budget", "compact"],
  "responses-compact": ["budget", "compact", "responses"],
  budget: ["budget"],
  "responses-budget": ["budget", "responses"],
};

export const PROFILE_NAMES = Object.keys(PROFILE_MEMBERS);
export const DEFAULT_PROFILE = "standard";

/** The profile's modules in pipeline order, or undefined for an unknown profile. */
export function profileModules(profile: string): ModuleName[] | undefined {
  const members = PROFILE_MEMBERS[profile];
  if (!members) return undefined;
  return MODULE_NAMES.filter((m) => members.includes(m));
}
