// What a typed message carries besides its text: the files `@path` names and the MCP resources
// `@SERVER:URI` names, within one shared byte budget. Either all of them are attached or the message
// is refused (one line): nothing is sent half-attached.
import {
  type Expanded,
  expandMentions,
  MENTION_MAX_FILE_BYTES,
  MENTION_MAX_TOTAL_BYTES,
} from "./mentions.ts";
import { attachResources } from "./resource-mentions.ts";
import type { AgentRuntime } from "./setup.ts";

/** The console's mentions: `@path` files and `@SERVER:URI` resources. */
export async function attachAllMentions(rt: AgentRuntime, text: string): Promise<Expanded> {
  const files = expandMentions(text, rt.workspace);
  return withResources(rt, text, files, MENTION_MAX_TOTAL_BYTES - (files.used ?? 0));
}

/** Print mode's mentions: only `@SERVER:URI` resources (a `-p` prompt's `@path` stays text). */
export function attachResourcesOnly(rt: AgentRuntime, text: string): Promise<Expanded> {
  return withResources(rt, text, { text, notes: [] }, MENTION_MAX_TOTAL_BYTES);
}

/** `base` with the resources `typed` mentions (never a mention inside an attached file) appended. */
async function withResources(
  rt: AgentRuntime,
  typed: string,
  base: Expanded,
  budget: number,
): Promise<Expanded> {
  const r = await attachResources(typed, rt.runtimeResources, budget, MENTION_MAX_FILE_BYTES);
  const notes = [...base.notes, ...r.notes];
  if (r.blocks.length === 0) return { ...base, notes };
  return { text: `${base.text}\n\n${r.blocks.join("\n\n")}`, notes, used: (base.used ?? 0) + r.used };
}
