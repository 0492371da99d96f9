// A word of a command as the shell will see it after quote removal: `\rm`, `'r''m'`, "$HOME/x", $'\x41'.
// What only the running shell knows (an unknown variable, $(…), a glob's matches) is marked, never guessed.
import type { Node } from "./parser.ts";

export interface Word {
  /** the text after quote removal; unknown parts are left as they were written */
  value: string;
  /** part of it is known only when it runs ($VAR not known here, $(…), $((…))) */
  dynamic: boolean;
  /** an unquoted *, ? or [ in it: the shell expands it to the matching paths */
  glob: boolean;
  /** where it was written: the parser's node, or the plain lexer's slice of the command */
  node: WordSource;
}

/** What the rules read of a word's source: its kind (a process substitution, a string) and text. */
export interface WordSource {
  readonly type: string;
  readonly text: string;
}

/** Variables known before the command runs: HOME, PWD and those the command itself assigned. */
export type Vars = ReadonlyMap<string, string>;

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
};

function ansiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)/g, (_m, e: string) => {
    if (e[0] === "x" && e.length > 1) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (e[0] === "u" && e.length > 1) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return ESCAPES[e] ?? e;
  });
}

interface Part {
  value: string;
  dynamic: boolean;
  glob: boolean;
}

function variable(name: string | undefined, vars: Vars, text: string): Part {
  const v = name === undefined ? undefined : vars.get(name);
  return v === undefined
    ? { value: text, dynamic: true, glob: false }
    : { value: v, dynamic: false, glob: false };
}

function part(node: Node, vars: Vars, quoted: boolean): Part {
  const text = node.text;
  switch (node.type) {
    case "word":
    case "number":
    case "command_name": {
      if (node.type === "command_name" && node.namedChildCount === 1 && node.namedChild(0))
        return part(node.namedChild(0) as Node, vars, quoted);
      const value = text.replace(/\\(.)/gs, "$1").replace(/\\\n/g, "");
      return { value, dynamic: false, glob: !quoted && /(^|[^\\])[*?[]/.test(text) };
    }
    case "raw_string":
      return { value: text.slice(1, -1), dynamic: false, glob: false };
    case "ansi_c_string":
      return { value: ansiC(text.slice(2, -1)), dynamic: false, glob: false };
    case "string_content":
      return { value: text.replace(/\\([$`"\\\n])/g, "$1"), dynamic: false, glob: false };
    case "string":
    case "translated_string":
    case "concatenation": {
      const inner = node.type !== "concatenation" || quoted;
      const parts = node.namedChildren.filter((c): c is Node => c !== null).map((c) => part(c, vars, inner));
      // Text between named children (a lone `$`, a space in "a b") is kept as written.
      if (node.type === "string" && parts.length === 0)
        return { value: text.slice(1, -1), dynamic: false, glob: false };
      return {
        value: node.type === "string" ? stringValue(node, vars) : parts.map((p) => p.value).join(""),
        dynamic: parts.some((p) => p.dynamic),
        glob: parts.some((p) => p.glob),
      };
    }
    case "simple_expansion": {
      const name = node.namedChild(0);
      return variable(name?.type === "variable_name" ? name.text : undefined, vars, text);
    }
    case "expansion": {
      // ${NAME} alone is the variable; ${NAME:-x}, ${#NAME}, ${NAME/a/b} are not known here.
      const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(text);
      return m ? variable(m[1], vars, text) : { value: text, dynamic: true, glob: false };
    }
    default:
      return { value: text, dynamic: true, glob: false };
  }
}

/** A double-quoted string's value: its parts in order, with the literal text between them kept. */
function stringValue(node: Node, vars: Vars): string {
  let out = "";
  let at = node.startIndex + 1;
  const src = node.text;
  for (const c of node.namedChildren) {
    if (!c) continue;
    out += src.slice(at - node.startIndex, c.startIndex - node.startIndex);
    out += part(c, vars, true).value;
    at = c.endIndex;
  }
  out += src.slice(at - node.startIndex, src.length - 1);
  return out;
}

/** The word `node` after quote removal, with what cannot be known here marked. */
export function wordOf(node: Node, vars: Vars): Word {
  const p = part(node, vars, false);
  return { ...p, node };
}

/** A tilde at the start of an unquoted word means the home directory. */
export function tildeWord(w: Word, home: string): string {
  const t = w.node.text;
  if (t === "~" || t.startsWith("~/")) return home + w.value.slice(1);
  return w.value;
}
