// A small syntax highlighter for fenced code: comments, strings, numbers and keywords of the common
// languages, by one regular expression per language; anything else is shown plain. A full grammar engine
// (highlight.js, shiki) would be several hundred KB to load for colouring a few code blocks.
import type { Style } from "../../terminal/style.ts";

type Kind = "comment" | "string" | "number" | "keyword" | "type";

interface Lang {
  /** alternatives in priority order, each a source string without flags */
  rules: [Kind, string][];
}

/** The end of the whole text (`$` is the end of a line here: the expression is multiline for `^`). */
const END = "(?![\\s\\S])";
const C_COMMENT = `//[^\\n]*|/\\*[\\s\\S]*?(?:\\*/|${END})`;
const words = (ws: string) => `\\b(?:${ws.trim().split(/\s+/).join("|")})\\b`;
const NUM = "\\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?)\\b";
const DQ = '"(?:[^"\\\\\\n]|\\\\.)*"?';
const SQ = "'(?:[^'\\\\\\n]|\\\\.)*'?";

const JS: Lang = {
  rules: [
    ["comment", C_COMMENT],
    ["string", `${DQ}|${SQ}|\`(?:[^\`\\\\]|\\\\[\\s\\S])*\`?`],
    [
      "keyword",
      words(`async await break case catch class const continue debugger default delete do else export extends
        false finally for from function if import in instanceof let new null of return static super switch this
        throw true try typeof undefined var void while with yield as interface type enum implements declare
        readonly keyof satisfies`),
    ],
    ["type", words("string number boolean unknown never any object bigint symbol Promise Array Record")],
    ["number", NUM],
  ],
};

const PY: Lang = {
  rules: [
    ["comment", "#[^\\n]*"],
    ["string", `[rbfuRBFU]{0,2}(?:"""[\\s\\S]*?(?:"""|${END})|'''[\\s\\S]*?(?:'''|${END})|${DQ}|${SQ})`],
    [
      "keyword",
      words(`and as assert async await break class continue def del elif else except False finally for from
        global if import in is lambda None nonlocal not or pass raise return True try while with yield match case`),
    ],
    ["type", words("int str float bool list dict set tuple bytes object self cls")],
    ["number", NUM],
  ],
};

const RUST: Lang = {
  rules: [
    ["comment", C_COMMENT],
    ["string", `b?${DQ}|r#*"[\\s\\S]*?(?:"#*|${END})|'(?:[^'\\\\\\n]|\\\\.)'`],
    [
      "keyword",
      words(`as async await break const continue crate dyn else enum extern false fn for if impl in let loop
        match mod move mut pub ref return self Self static struct super trait true type unsafe use where while`),
    ],
    [
      "type",
      words(
        "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box",
      ),
    ],
    ["number", NUM],
  ],
};

const GO: Lang = {
  rules: [
    ["comment", C_COMMENT],
    ["string", `${DQ}|\`[^\`]*\`?|'(?:[^'\\\\\\n]|\\\\.)*'`],
    [
      "keyword",
      words(`break case chan const continue default defer else fallthrough for func go goto if import interface
        map package range return select struct switch type var nil true false iota`),
    ],
    [
      "type",
      words(
        "int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float32 float64 string bool byte rune error any",
      ),
    ],
    ["number", NUM],
  ],
};

const SH: Lang = {
  rules: [
    ["comment", "(?:^|(?<=\\s))#[^\\n]*"],
    ["string", `${DQ}|'[^']*'?`],
    [
      "keyword",
      words(
        "if then else elif fi for while until do done case esac in function return local export set unset echo cd exit",
      ),
    ],
    ["type", "\\$(?:\\{[^}\\n]*\\}?|[A-Za-z_][A-Za-z0-9_]*|[0-9@#?$!*-])"],
    ["number", NUM],
  ],
};

const JSON_LANG: Lang = {
  rules: [
    ["type", `${DQ}(?=\\s*:)`],
    ["string", DQ],
    ["keyword", words("true false null")],
    ["number", "-?\\b\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b"],
  ],
};

const LANGS: Record<string, Lang> = {
  ts: JS,
  typescript: JS,
  tsx: JS,
  js: JS,
  javascript: JS,
  jsx: JS,
  mjs: JS,
  py: PY,
  python: PY,
  rs: RUST,
  rust: RUST,
  go: GO,
  golang: GO,
  sh: SH,
  bash: SH,
  shell: SH,
  zsh: SH,
  console: SH,
  json: JSON_LANG,
  jsonc: JSON_LANG,
};

const compiled = new Map<Lang, RegExp>();

function regexFor(lang: Lang): RegExp {
  let re = compiled.get(lang);
  if (!re) {
    re = new RegExp(lang.rules.map(([, src]) => `(${src})`).join("|"), "gm");
    compiled.set(lang, re);
  }
  return re;
}

function painter(kind: Kind, s: Style): (t: string) => string {
  switch (kind) {
    case "comment":
      return (t) => s.gray(t);
    case "string":
      return (t) => s.green(t);
    case "number":
      return (t) => s.yellow(t);
    case "keyword":
      return (t) => s.magenta(t);
    case "type":
      return (t) => s.cyan(t);
  }
}

function diffLines(code: string, s: Style): string[] {
  return code.split("\n").map((l) => {
    if (l.startsWith("+++") || l.startsWith("---")) return s.bold(l);
    if (l.startsWith("+")) return s.added(l);
    if (l.startsWith("-")) return s.removed(l);
    if (l.startsWith("@@")) return s.cyan(l);
    return l;
  });
}

/** `code` as styled lines; an unknown language comes back unstyled. */
export function highlight(code: string, lang: string, s: Style): string[] {
  const name = lang.toLowerCase();
  if (name === "diff" || name === "patch") return diffLines(code, s);
  const def = LANGS[name];
  if (!def || !s.caps.color) return code.split("\n");
  const re = regexFor(def);
  const lines: string[] = [""];
  // Style each piece line by line, so no styling spans a line break (each line is prefixed on its own).
  const add = (text: string, paint?: (t: string) => string) => {
    text.split("\n").forEach((part, i) => {
      if (i > 0) lines.push("");
      if (part) lines[lines.length - 1] += paint ? paint(part) : part;
    });
  };
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    add(code.slice(last, m.index));
    const group = m.slice(1).findIndex((g) => g !== undefined);
    const kind = def.rules[group]?.[0];
    add(m[0], kind ? painter(kind, s) : undefined);
    last = m.index + m[0].length;
  }
  add(code.slice(last));
  return lines;
}
