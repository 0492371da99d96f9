// `i compact`: compact a saved session now (manual trigger).
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const command = defineSubcommand(
  {
    name: "i compact",
    description: "Compact a saved session now",
    args: {
      resume: { type: "string", alias: "r", description: "session id (default: newest of this workspace)" },
      instructions: { type: "string", description: "extra instructions for the summary" },
      workspace: { type: "string", description: "workspace directory (default: cwd)" },
    },
  },
  async () => {
    throw new NotImplementedError("i compact");
  },
);
