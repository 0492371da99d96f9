// `i start`: the launcher logic behind start.sh (fresh temporary manifest, then run).
import { defineSubcommand } from "../command.ts";
import { NotImplementedError } from "../errors.ts";

export const command = defineSubcommand(
  { name: "i start", description: "Generate a fresh manifest from current bindings, then run", args: {} },
  async () => {
    throw new NotImplementedError("i start");
  },
);
