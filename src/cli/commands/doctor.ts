// `i doctor`: validate every config file and binding, start each worker, check its handshake.
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const command = defineSubcommand(
  { name: "i doctor", description: "Check config files, bindings and every worker", args: {} },
  async () => {
    throw new NotImplementedError("i doctor");
  },
);
