// The system prompt: the embedded default filled in with the session's environment, the working rules
// for the tools this session has and a few lines for the model's family, then every `system_prompt`
// hook in manifest order (the prompts module adds the user's and the project's instructions).
import { PROMPTS } from "../contract/generated/prompts.ts";
import type { HookRunner } from "../worker/types.ts";
import { familyNotes } from "./model-family.ts";
import { type PromptEnvironment, renderEnvironment } from "./prompt-environment.ts";

export interface PromptInfo {
  workspace: string;
  model: string;
  provider: string;
  tools: string[];
}

const SEARCH_TOOLS =
  "Search file contents with grep, find files by name with find and look at files with read: they are faster than bash, respect .gitignore and keep their output bounded. Use bash for the rest: building, testing, git, running programs.";
const SEARCH_READONLY =
  "Search file contents with grep, find files by name with find and look at files with read.";
const SEARCH_BASH =
  "Look at files with read; search with bash (rg or grep -rn, find), keeping the output small (a narrow path, -l, head).";

/** The default prompt for this session, before any hook. */
export function basePrompt(info: PromptInfo, env: PromptEnvironment): string {
  const has = (name: string) => info.tools.includes(name);
  const fileRules =
    env.approval === "none"
      ? PROMPTS["system-readonly"]
      : has("apply_patch")
        ? PROMPTS["system-patch"]
        : PROMPTS["system-edit"];
  const fill: Record<string, string> = {
    environment: renderEnvironment(env),
    search_rule:
      has("grep") && has("find") ? (env.approval === "none" ? SEARCH_READONLY : SEARCH_TOOLS) : SEARCH_BASH,
    file_rules: fileRules.trimEnd(),
    model_notes: familyNotes(info.model),
    workspace: info.workspace,
  };
  return PROMPTS.system.replace(/\{\{(\w+)\}\}/g, (m, key: string) => fill[key] ?? m);
}

export async function buildSystemPrompt(
  hooks: HookRunner,
  info: PromptInfo,
  env: PromptEnvironment,
): Promise<string> {
  const base = basePrompt(info, env);
  if (!hooks.hasHook("system_prompt")) return base;
  // The host has checked each reply: `system` is a nonempty string.
  return (await hooks.runHook("system_prompt", { system: base, ...info })).system;
}
