// What citty's parser leaves to us: it accepts any flag and lets a string flag swallow the next flag as
// its value, while `i` treats unknown flags and missing values as usage errors (exit 2) with one line.
import type { ArgDef, ArgsDef } from "citty";
import { UserError } from "../contract/errors.ts";

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Refuse flags `def` does not name, string flags without a value or with an empty one, a value given to a
 * boolean flag, an enum value outside its options, a missing required positional and (unless `rest`) more
 * words than `def` has positionals: citty would silently ignore most of these, fall back to a default for
 * an empty value, and word the rest in its own style.
 */
export function checkStrict(command: string, raw: readonly string[], def: ArgsDef, rest = false): void {
  const see = `see \`${command} --help\``;
  const positionals = Object.entries(def).filter(([, d]) => d.type === "positional");
  const words: string[] = [];
  const known = new Map<string, ArgDef>();
  for (const [name, d] of Object.entries(def)) {
    if (d.type === "positional") continue;
    const alias = "alias" in d ? d.alias : undefined;
    for (const n of [name, kebab(name), ...(Array.isArray(alias) ? alias : alias ? [alias] : [])])
      known.set(n, d);
    if (d.type === "boolean") known.set(`no-${kebab(name)}`, d);
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
    const flag = tok.split("=")[0];
    const d = known.get(name);
    if (!d) throw new UserError(`${command}: unknown flag ${tok}; ${see}`);
    if (d.type === "boolean") {
      if (inline !== undefined)
        throw new UserError(`${command}: flag ${flag} takes no value (it is on when given); ${see}`);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = raw[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) {
        throw new UserError(`${command}: flag ${tok} needs a value; ${see}`);
      }
      value = next;
      i++;
    }
    if (value.trim() === "")
      throw new UserError(
        `${command}: flag ${flag} has an empty value; give it a value or leave it out; ${see}`,
      );
    if (d.type === "enum" && d.options && !d.options.includes(value))
      throw new UserError(
        `${command}: flag ${flag}: "${value}" is not one of ${d.options.join(", ")}; ${see}`,
      );
  }
  const missing = positionals.find(([, d], at) => d.required && words[at] === undefined);
  if (missing) {
    const [name, d] = missing;
    throw new UserError(
      `${command}: missing ${name.toUpperCase()}${d.description ? ` (${d.description})` : ""}; ${see}`,
    );
  }
  const extra = words[positionals.length];
  if (!rest && extra !== undefined)
    throw new UserError(
      `${command}: unexpected argument "${extra}"${positionals.length === 0 ? " (it takes none)" : ""}; ${see}`,
    );
}
