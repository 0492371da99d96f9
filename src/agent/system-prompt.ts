// The system prompt: the embedded default, then every `system_prompt` hook in manifest order.
import { PROMPTS } from "../contract/generated/prompts.ts";
import type { HookRunner } from "../worker/types.ts";

export async function buildSystemPrompt(
  hooks: HookRunner,
  info: { workspace: string; model: string; provider: string; tools: string[] },
): Promise<string> {
  const base = PROMPTS.system.replaceAll("{{workspace}}", info.workspace);
  if (!hooks.hasHook("system_prompt")) return base;
  // The host has checked each reply: `system` is a nonempty string.
  return (await hooks.runHook("system_prompt", { system: base, ...info })).system;
}
