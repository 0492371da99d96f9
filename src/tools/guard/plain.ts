// Most commands an agent runs are plain: words, quotes with no expansion in them, pipes, && || ;, and a
// redirection at the end (`git status`, `grep -rn foo src | head`, `npm test 2>&1`). Those are read here
// by a small lexer, so the shell parser (a WASM module of about 40 ms and 8 MB, loaded once) is needed only
// for a command with anything the shell expands or nests: $, `, \, globs, braces, ~, here-docs, ( ),
// keywords. Anything outside that subset is refused, never guessed, and the parser reads it.
import type { Word } from "./words.ts";

export interface PlainRedirect {
  /** the operator as the parser names it: >, >>, >&, &>, &>>, < */
  op: string;
  target: Word;
}

/** One stage of a pipeline: its words, then the redirections written after them. */
export interface PlainStage {
  /** the variables set for this command alone (`NODE_ENV=test npm test`) */
  env: Map<string, string>;
  words: Word[];
  redirects: PlainRedirect[];
}

/** The command as the shell runs it: pipelines in order (`;`, `&&`, `||` all keep the order). */
export type PlainCommand = PlainStage[][];

/** Characters that stand for themselves outside quotes. */
const LITERAL = /[A-Za-z0-9_./:=,@%+-]/;
/** Inside double quotes, these expand or escape; anything else is literal. */
const DQ_SPECIAL = /[$`\\!\n]/;
/** Words that are not a command in command position: the parser gives them a reading of their own. */
const NOT_A_COMMAND = new Set(
  "if then else elif fi case esac for select while until do done in function time coproc declare typeset export readonly local unset".split(
    " ",
  ),
);

type Token = { word: Word } | { op: string };

/** A word at `at`: literal characters and quoted strings up to a space or operator. */
function readWord(text: string, at: number): { word: Word; end: number } | undefined {
  let value = "";
  let i = at;
  while (i < text.length) {
    const c = text.charAt(i);
    if (LITERAL.test(c) || (c === "~" && i > at && !/[=:]/.test(text.charAt(i - 1)))) {
      // A tilde is the home directory only at a word's start or after = or : (HEAD~1 is literal).
      value += c;
      i++;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return undefined;
      const inner = text.slice(i + 1, close);
      if (inner.includes("\n") || (c === '"' && DQ_SPECIAL.test(inner))) return undefined;
      value += inner;
      i = close + 1;
    } else break;
  }
  if (i === at) return undefined;
  return {
    word: { value, dynamic: false, glob: false, node: { type: "word", text: text.slice(at, i) } },
    end: i,
  };
}

const OPERATORS = ["&&", "||", "&>>", "&>", ">>", ">&", ">", "<", "|", ";"];
/** Digits right before `>`, matched where the lexer stands (sticky): a file descriptor, however long. */
const DESCRIPTOR = /\d+(?=>)/y;

function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    // A file descriptor: digits standing alone right before > (2>&1, 2>/dev/null).
    DESCRIPTOR.lastIndex = i;
    const fd = DESCRIPTOR.exec(text);
    if (fd && (i === 0 || text.charAt(i - 1) === " " || text.charAt(i - 1) === "\t")) {
      i += fd[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      // `>|`, `|&`, `<<`, `<>`, `<&`, `>(`: forms the lexer leaves to the parser.
      const next = text.charAt(i + op.length);
      if ((op === ">" && next === "|") || (op === "|" && next === "&") || (op === "<" && /[<>&(]/.test(next)))
        return undefined;
      out.push({ op });
      i += op.length;
      continue;
    }
    const w = readWord(text, i);
    if (!w) return undefined;
    out.push({ word: w.word });
    i = w.end;
  }
  return out;
}

/** The pipelines of `text` when it is plain; undefined when the parser must read it. */
export function plainCommand(text: string): PlainCommand | undefined {
  const toks = tokens(text);
  if (!toks?.length) return undefined;
  const list: PlainCommand = [];
  let pipeline: PlainStage[] = [];
  let stage: PlainStage = { env: new Map(), words: [], redirects: [] };
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k] as Token;
    if ("word" in t) {
      // A word after a redirection's target: the parser's tree for it differs, so leave it there.
      if (stage.redirects.length > 0) return undefined;
      if (stage.words.length === 0) {
        const name = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(t.word.node.text)?.[0];
        if (name) {
          stage.env.set(name.slice(0, -1), t.word.value.slice(name.length));
          continue;
        }
        if (t.word.value.includes("=") || NOT_A_COMMAND.has(t.word.value)) return undefined;
      }
      stage.words.push(t.word);
      continue;
    }
    if (t.op === "|" || t.op === "&&" || t.op === "||" || t.op === ";") {
      // An assignment alone sets a variable of the shell's: the parser's reading follows it.
      if (stage.words.length === 0) return undefined;
      pipeline.push(stage);
      stage = { env: new Map(), words: [], redirects: [] };
      if (t.op !== "|") {
        list.push(pipeline);
        pipeline = [];
      }
      continue;
    }
    const target = toks[k + 1];
    if (stage.words.length === 0 || !target || !("word" in target)) return undefined;
    stage.redirects.push({ op: t.op, target: target.word });
    k++;
  }
  if (stage.words.length === 0) return undefined;
  pipeline.push(stage);
  list.push(pipeline);
  return list;
}
