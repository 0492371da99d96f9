// `i sessions`: list the sessions of this workspace.
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const command = defineSubcommand(
  {
    name: "i sessions",
    description: "List sessions of this workspace",
    args: { workspace: { type: "string", description: "workspace directory (default: cwd)" } },
  },
  async () => {
    throw new NotImplementedError("i sessions");
  },
);
