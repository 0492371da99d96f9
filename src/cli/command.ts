// The shape of one `i` subcommand: citty argument definitions plus a run function returning an exit code.
import { type ArgsDef, renderUsage } from "citty";
import { parseStrict } from "./args.ts";

export interface Command {
  /** parse raw argv (after the subcommand name) and run; resolves to the exit code */
  invoke(raw: string[]): Promise<number>;
}

export interface CommandSpec<T extends ArgsDef> {
  name: string;
  description: string;
  args: T;
}

export function defineSubcommand<const T extends ArgsDef>(
  spec: CommandSpec<T>,
  run: (args: ReturnType<typeof parseStrict<T>>) => Promise<number>,
): Command {
  return {
    async invoke(raw) {
      if (raw.includes("--help") || raw.includes("-h")) {
        const usage = await renderUsage({
          meta: { name: spec.name, description: spec.description },
          args: spec.args,
        });
        process.stdout.write(`${usage}\n`);
        return 0;
      }
      return run(parseStrict(spec.name, raw, spec.args));
    },
  };
}
