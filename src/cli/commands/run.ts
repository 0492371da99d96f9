// The root command: the interactive console, or print mode with -p.
import type { ArgsDef } from "citty";
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const RUN_ARGS = {
  prompt: { type: "positional", description: "first message (print mode: the whole task)", required: false },
  print: { type: "boolean", alias: "p", description: "one non-interactive run; prints the final answer" },
  json: { type: "boolean", description: "with -p: stream every event as NDJSON on stdout" },
  model: { type: "string", alias: "m", description: "model name (default: config.json model, I_MODEL)" },
  provider: { type: "enum", options: ["openai", "anthropic", "responses"], description: "wire format" },
  "base-url": { type: "string", description: "provider base URL (Ollama, vLLM, LM Studio, OpenRouter …)" },
  profile: { type: "string", description: "module profile (default: plugins.json profile, else standard)" },
  manifest: { type: "string", description: "run with this manifest as-is" },
  continue: { type: "boolean", alias: "c", description: "resume the newest session of this workspace" },
  resume: { type: "string", alias: "r", description: "resume the session with this id" },
  workspace: { type: "string", description: "workspace directory (default: cwd)" },
  approve: {
    type: "enum",
    options: ["all", "ask", "none"],
    description: "bash policy (console: ask, print: none)",
  },
  "max-turns": { type: "string", description: "stop after this many model requests (default 200)" },
} satisfies ArgsDef;

export const command = defineSubcommand(
  { name: "i", description: "A coding agent for the terminal", args: RUN_ARGS },
  async () => {
    throw new NotImplementedError("the agent (i [PROMPT] / i -p)");
  },
);
