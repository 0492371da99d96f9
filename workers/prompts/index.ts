// The prompts module: user and project additions to the system prompt, and the compaction prompt.
import { defineWorkerModule } from "../sdk/module.ts";
import { appendToSystem } from "../sdk/system-prompt.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { supplyCompactPrompt } from "./compact-prompt.ts";
import { systemAdditions } from "./system-additions.ts";

export function createPromptsModule(configDir = workerConfigDir()) {
  return defineWorkerModule({
    name: "prompts",
    hooks: {
      system_prompt: (data, ctx) =>
        appendToSystem(data, "prompts", systemAdditions(configDir, ctx.workspace, ctx.log)),
      before_compact: (data, ctx) => supplyCompactPrompt(data, configDir, ctx.workspace),
    },
  });
}
