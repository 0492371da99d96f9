// `i worker MODULE[,MODULE…]`: run built-in modules as one NDJSON worker on stdio. Started by the host for every
// built-in module, so it stays lean: the module code and the SDK are imported only after the names check out.

import { UserError } from "../../contract/errors.ts";
import { defineSubcommand } from "../command.ts";

export const command = defineSubcommand(
  {
    name: "i worker",
    description: "Run built-in modules as an NDJSON worker on stdio",
    args: {
      modules: { type: "positional", description: "module name(s), comma-separated", required: true },
      // Appended by the console for the steering module, which reads it from argv (workers/steering/README.md).
      queue: { type: "string", valueHint: "file", description: "steering queue file (JSON lines)" },
    },
  },
  async (args) => {
    const [{ MODULE_NAMES, isModuleName }, { serveBuiltins }] = await Promise.all([
      import("../../contract/registry.ts"),
      import("../../../workers/registry.ts"),
    ]);
    const names = String(args.modules).split(",");
    const seen = new Set<string>();
    for (const name of names) {
      if (!isModuleName(name)) {
        const shown = name === "" ? "an empty module name" : `unknown module "${name}"`;
        throw new UserError(`i worker: ${shown}; built-in modules are: ${MODULE_NAMES.join(", ")}`);
      }
      if (seen.has(name))
        throw new UserError(`i worker: module "${name}" is listed twice; name each module once`);
      seen.add(name);
    }
    await serveBuiltins(names.filter(isModuleName));
    return 0;
  },
);
