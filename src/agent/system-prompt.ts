// The system prompt: the embedded default, then every `system_prompt` hook in manifest order.
import { PROMPTS } from "../contract/generated/prompts.ts";
import type { HookRunner } from "../worker/types.ts";

export async function buildSystemPrompt(
  hooks: HookRunner,
  info: { workspace: string; model: string; provider: string; tools: string[] },
): Promise<string> {
  const base = PROMPTS.system.replaceAll("{{workspace}}", info.workspace);
  if (!hooks.hasHook("system_prompt")) return base;
  const data = await hooks.runHook("system_prompt", { system: base, ...info });
  if (typeof data.system !== "string" || data.system.trim() === "") {
    throw new Error("system_prompt hook returned no system text (data.system must be a nonempty string)");
  }
  return data.system;
}
