// One `i` subcommand is a citty command: meta, argument definitions and a run function returning the exit
// code. citty parses; we render --help (help.ts) and add what it leaves to us (args.ts): unknown flags and missing
// values are usage errors, exit 2, one line; `--help` into a pipe carries no colour.
import { stripVTControlCharacters } from "node:util";
import { type ArgsDef, type CommandDef, defineCommand, type ParsedArgs, runCommand } from "citty";
import { UserError } from "../contract/errors.ts";
import { checkStrict } from "./args.ts";
import { renderHelp } from "./help.ts";

/** What a command may ask of the CLI around it. */
export interface CliContext {
  /** run `i ARGV` again in this process (the launcher re-enters with a generated manifest) */
  main(argv: string[]): Promise<number>;
}

/** A command as main.ts stores it; `raw` commands take their argv unparsed (the launcher passes it on). */
export type CliCommand = CommandDef<ArgsDef> & {
  raw?: boolean;
  /** the last positional takes every further word (`i -p fix the bug` is one prompt) */
  rest?: boolean;
};

export interface CommandSpec<T extends ArgsDef> {
  name: string;
  description: string;
  args: T;
  /** the last positional takes every further word; otherwise an extra word is a usage error */
  rest?: boolean;
}

export function defineSubcommand<const T extends ArgsDef>(
  spec: CommandSpec<T>,
  run: (args: ParsedArgs<T>, cli: CliContext) => Promise<number>,
): CliCommand {
  const cmd = defineCommand<T>({
    meta: { name: spec.name, description: spec.description },
    args: spec.args,
    run: (ctx) => run(ctx.args, ctx.data as CliContext),
  });
  return Object.assign(cmd as unknown as CliCommand, spec.rest ? { rest: true } : {});
}

/** A command that takes its argv as is: no parsing, no `--help` of its own. */
export function definePassThrough(
  spec: { name: string; description: string },
  run: (raw: string[], cli: CliContext) => Promise<number>,
): CliCommand {
  return {
    meta: { name: spec.name, description: spec.description },
    raw: true,
    run: (ctx) => run(ctx.rawArgs, ctx.data as CliContext),
  };
}

/** A subcommand's `--help`: how it is typed, what it does, its arguments and flags. */
export function usage(cmd: CommandDef<ArgsDef>): string {
  const meta = (cmd.meta ?? {}) as { name?: string; description?: string };
  return renderHelp({
    name: meta.name ?? "i",
    description: meta.description ?? "",
    args: (cmd.args ?? {}) as ArgsDef,
  });
}

function wantsHelp(raw: readonly string[]): boolean {
  const end = raw.indexOf("--");
  return (end < 0 ? raw : raw.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** Run `cmd` on `raw` (the argv after its name) and resolve to its exit code. */
export async function invoke(cmd: CliCommand, raw: string[], cli: CliContext): Promise<number> {
  const name = String((cmd.meta as { name?: string } | undefined)?.name ?? "i");
  if (!cmd.raw) {
    if (wantsHelp(raw)) {
      process.stdout.write(usage(cmd));
      return 0;
    }
    checkStrict(name, raw, (cmd.args ?? {}) as ArgsDef, cmd.rest === true);
  }
  try {
    const { result } = await runCommand(cmd, { rawArgs: raw, data: cli });
    return typeof result === "number" ? result : 0;
  } catch (err) {
    // citty's own argument errors (a bad enum value, a missing positional) are usage errors too.
    if (err instanceof Error && err.name === "CLIError")
      throw new UserError(
        `${name}: ${stripVTControlCharacters(err.message).replace(/\.$/, "")}; see \`${name} --help\``,
      );
    throw err;
  }
}
