// What citty's parser leaves to us: it accepts any flag and lets a string flag swallow the next flag as
// its value, while `i` treats unknown flags and missing values as usage errors (exit 2) with one line.
import type { ArgsDef } from "citty";
import { UserError } from "../contract/errors.ts";

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Refuse flags `def` does not name and string flags without a value (citty then parses `raw`). */
export function checkStrict(command: string, raw: readonly string[], def: ArgsDef): void {
  const known = new Map<string, string>();
  for (const [name, d] of Object.entries(def)) {
    if (d.type === "positional") continue;
    const kind = d.type ?? "string";
    const alias = "alias" in d ? d.alias : undefined;
    for (const n of [name, kebab(name), ...(Array.isArray(alias) ? alias : alias ? [alias] : [])])
      known.set(n, kind);
    if (kind === "boolean") known.set(`no-${kebab(name)}`, kind);
  }
  for (let i = 0; i < raw.length; i++) {
    const tok = raw[i] as string;
    if (tok === "--") break;
    if (!tok.startsWith("-") || tok === "-") continue;
    const body = tok.replace(/^--?/, "");
    const [name, inline] = body.split("=", 2) as [string, string | undefined];
    const kind = known.get(name);
    if (!kind) throw new UserError(`${command}: unknown flag ${tok}; see \`${command} --help\``);
    if (kind !== "boolean" && inline === undefined) {
      const next = raw[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) {
        throw new UserError(`${command}: flag ${tok} needs a value; see \`${command} --help\``);
      }
      i++;
    }
  }
}
