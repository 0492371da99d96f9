// `--help` text, fitted to the terminal: flags on the left, what they do wrapped in a column of its own.
// Written here rather than taken from citty's renderUsage, which pads every line to the longest
// description (one long flag made each line of `i --help` over 200 columns wide) and right-aligns flags.
import type { ArgDef, ArgsDef } from "citty";
import { columns } from "../terminal/columns.ts";
import { terminalColumns, wrap } from "../terminal/width.ts";

export interface HelpSpec {
  /** how the command is typed: "i", "i doctor" */
  name: string;
  description: string;
  version?: string;
  args: ArgsDef;
  /** subcommands by name, with their one-line description */
  commands?: ReadonlyArray<readonly [string, string]>;
}

/** Wider than this, lines of prose get hard to follow, whatever the terminal's width. */
const MAX_WIDTH = 100;

/** The columns help is fitted to: the terminal's (up to MAX_WIDTH), 80 into a pipe or a file. */
export function helpWidth(): number {
  const cols = terminalColumns();
  return Math.min(MAX_WIDTH, cols && cols >= 40 ? cols : 80);
}

function aliases(def: ArgDef): string[] {
  const a = "alias" in def ? def.alias : undefined;
  return a === undefined ? [] : Array.isArray(a) ? a : [a];
}

/** `-m, --model <model>`; flags without a short form line up under the long ones. An enum with a value hint
 * (a long list) names its options in the description instead. */
function flagTerm(name: string, def: ArgDef): string {
  const short = aliases(def).filter((a) => a.length === 1);
  const head = short.length > 0 ? `${short.map((a) => `-${a}`).join(", ")}, ` : "    ";
  const value =
    def.type === "boolean"
      ? ""
      : def.type === "enum" && def.options && !def.valueHint
        ? ` <${def.options.join("|")}>`
        : ` <${def.valueHint ?? name}>`;
  return `${head}--${name}${value}`;
}

function describe(def: ArgDef): string {
  const text = def.description ?? "";
  return def.type === "positional" && def.required ? `${text} (required)` : text;
}

export function renderHelp(spec: HelpSpec, width = helpWidth()): string {
  const entries = Object.entries(spec.args) as Array<[string, ArgDef]>;
  const positionals = entries.filter(([, d]) => d.type === "positional");
  const flags = entries.filter(([, d]) => d.type !== "positional");
  const posUsage = positionals.map(([n, d]) =>
    d.required ? `<${n.toUpperCase()}>` : `[${n.toUpperCase()}]`,
  );
  const usage = [spec.name, ...(flags.length > 0 ? ["[OPTIONS]"] : []), ...posUsage].join(" ");
  const title = `${spec.description}${spec.version ? ` (${spec.name} v${spec.version})` : ""}`;
  const out = [...wrap(title, width), ""];
  out.push("USAGE", `  ${usage}`);
  if (spec.commands?.length) out.push(`  ${spec.name} <COMMAND> [OPTIONS]`);
  const section = (title: string, rows: ReadonlyArray<readonly [string, string]>) => {
    if (rows.length > 0) out.push("", title, ...columns(rows, width, { indent: 2, maxTerm: 32 }));
  };
  section(
    "ARGUMENTS",
    positionals.map(([n, d]) => [n.toUpperCase(), describe(d)] as const),
  );
  section(
    "OPTIONS",
    flags.map(([n, d]) => [flagTerm(n, d), describe(d)] as const),
  );
  section("COMMANDS", spec.commands ?? []);
  if (spec.commands?.length) out.push("", `\`${spec.name} <COMMAND> --help\` tells more about a command.`);
  return `${out.join("\n")}\n`;
}
