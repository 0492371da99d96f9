// Flags every command that talks to a model shares: which model, which wire, where, with which modules.

import type { ArgsDef } from "citty";
import { ProviderName } from "../contract/config.ts";

export const TARGET_ARGS = {
  model: {
    type: "string",
    alias: "m",
    valueHint: "name",
    description: "model name (default: config.json model, I_MODEL)",
  },
  provider: {
    type: "enum",
    options: [...ProviderName.options],
    valueHint: "name",
    description: `wire format and credentials: ${ProviderName.options.join(", ")}`,
  },
  "base-url": {
    type: "string",
    valueHint: "url",
    description: "provider base URL, e.g. for Ollama, vLLM, LM Studio or OpenRouter",
  },
  profile: {
    type: "string",
    valueHint: "name",
    description: "module profile (default: plugins.json profile, else standard)",
  },
  manifest: { type: "string", valueHint: "file", description: "run with this manifest as-is" },
  workspace: { type: "string", valueHint: "dir", description: "workspace directory (default: cwd)" },
} satisfies ArgsDef;

type TargetValues = { [K in keyof typeof TARGET_ARGS]?: string | undefined };

/** The parsed target flags, named the way setupAgent takes them. */
export function targetFlags(args: TargetValues) {
  return {
    model: args.model,
    provider: args.provider,
    baseUrl: args["base-url"],
    workspace: args.workspace,
    profile: args.profile,
    manifest: args.manifest,
  };
}
