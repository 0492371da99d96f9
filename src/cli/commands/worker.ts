// `i worker MODULE[,MODULE…]`: run built-in modules as one NDJSON worker on stdio.
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const command = defineSubcommand(
  {
    name: "i worker",
    description: "Run built-in modules as an NDJSON worker on stdio",
    args: { modules: { type: "positional", description: "module name(s), comma-separated", required: true } },
  },
  async () => {
    throw new NotImplementedError("i worker");
  },
);
