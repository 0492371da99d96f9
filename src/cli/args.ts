// What citty's parser leaves to us: it accepts any flag and lets a string flag swallow the next flag as
// its value, while `i` treats unknown flags and missing values as usage errors (exit 2) with one line.
import type { ArgsDef } from "citty";
import { UserError } from "../contract/errors.ts";

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Refuse flags `def` does not name, string flags without a value, a value given to a boolean flag, and
 * (unless `rest`) more words than `def` has positionals: citty would silently ignore them all.
 */
export function checkStrict(command: string, raw: readonly string[], def: ArgsDef, rest = false): void {
  const see = `see \`${command} --help\``;
  const positionals = Object.values(def).filter((d) => d.type === "positional").length;
  const words: string[] = [];
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
    if (tok === "--") {
      words.push(...raw.slice(i + 1));
      break;
    }
    if (!tok.startsWith("-") || tok === "-") {
      words.push(tok);
      continue;
    }
    const body = tok.replace(/^--?/, "");
    const [name, inline] = body.split("=", 2) as [string, string | undefined];
    const kind = known.get(name);
    if (!kind) throw new UserError(`${command}: unknown flag ${tok}; ${see}`);
    if (kind === "boolean" && inline !== undefined)
      throw new UserError(
        `${command}: flag ${tok.split("=")[0]} takes no value (it is on when given); ${see}`,
      );
    if (kind !== "boolean" && inline === undefined) {
      const next = raw[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) {
        throw new UserError(`${command}: flag ${tok} needs a value; ${see}`);
      }
      i++;
    }
  }
  const extra = words[positionals];
  if (!rest && extra !== undefined)
    throw new UserError(
      `${command}: unexpected argument "${extra}"${positionals === 0 ? " (it takes none)" : ""}; ${see}`,
    );
}
