// Questions on the terminal for the first-run setup and `i auth login`: one line of answer each, read in
// raw mode so a key can be typed or pasted without being echoed. The terminal is given back as it was on
// every path (an answer, Ctrl-C, Ctrl-D, an error), and Ctrl-C cancels the whole setup.
import { UserError } from "../../contract/errors.ts";
import type { RawStdin } from "../../terminal/raw-stdin.ts";
import { sanitize } from "../../terminal/sanitize.ts";

/** The user left the setup (Ctrl-C, Ctrl-D on an empty answer): nothing was written. */
export class SetupCancelled extends UserError {
  constructor() {
    super("setup cancelled; nothing was saved (run `i auth login` to start it again)", 130);
  }
}

export interface AskIo {
  write(text: string): void;
  /** one answer line; `secret`: nothing of it is shown, not even its length */
  readLine(secret: boolean): Promise<string>;
}

// CSI sequences (arrows, bracketed-paste marks) and SS3 keys, built from a string: no control character
// in a regular-expression literal.
const ESC = String.fromCharCode(27);
const ESCAPE_SEQUENCE = new RegExp(`${ESC}(\\[[0-9;?]*[ -/]*[@-~]|O.)`, "g");

interface Edited {
  line: string;
  done?: boolean;
  cancel?: boolean;
  /** what came after Enter in the same chunk: typed ahead, the next answer's */
  rest: string;
}

/** Editing keys of a one-line answer; escape sequences (arrows, bracketed-paste marks) are dropped. */
function edit(line: string, chunk: string): Edited {
  let s = line;
  const chars = [...chunk.replace(ESCAPE_SEQUENCE, "")];
  for (const [i, ch] of chars.entries()) {
    const rest = () => chars.slice(i + 1).join("");
    if (ch === "\r" || ch === "\n") return { line: s, done: true, rest: rest().replace(/^\n/, "") };
    if (ch === "\u0003") return { line: s, cancel: true, rest: "" };
    if (ch === "\u0004" && s === "") return { line: s, cancel: true, rest: "" };
    if (ch === "\u007f" || ch === "\b") s = [...s].slice(0, -1).join("");
    else if (ch === "\u0015") s = "";
    else if (ch >= " " && ch !== "\u001b") s += ch;
  }
  return { line: s, rest: "" };
}

/**
 * Questions on this process's terminal. Raw mode stays on from the first question until close(): were it
 * switched off between questions, the terminal itself would echo a key pasted a moment early.
 */
export function terminalIo(stdin: RawStdin = process.stdin, out = process.stdout): AskIo & { close(): void } {
  let ahead = "";
  let raw = false;
  let waiting: ((chunk: string) => void) | undefined;
  const onData = (chunk: Buffer) => {
    ahead += chunk.toString("utf8");
    const w = waiting;
    if (w) {
      waiting = undefined;
      const text = ahead;
      ahead = "";
      w(text);
    }
  };
  const restoreOnExit = () => stdin.setRawMode?.(false);
  const close = () => {
    if (!raw) return;
    raw = false;
    stdin.off("data", onData);
    stdin.setRawMode?.(false);
    stdin.pause();
    process.off("exit", restoreOnExit);
  };
  const next = (): Promise<string> => {
    if (ahead !== "") {
      const text = ahead;
      ahead = "";
      return Promise.resolve(text);
    }
    return new Promise((resolve) => {
      waiting = resolve;
    });
  };
  return {
    write: (text) => out.write(text),
    close,
    async readLine(secret) {
      if (!raw) {
        raw = true;
        process.once("exit", restoreOnExit);
        stdin.setRawMode?.(true);
        stdin.on("data", onData);
        stdin.resume();
      }
      let line = "";
      for (;;) {
        const before = line;
        const r = edit(line, await next());
        line = r.line;
        if (!secret) {
          // Redraw only what changed at the end: a backspace erases one cell, new text is shown inert.
          if (line.startsWith(before)) out.write(sanitize(line.slice(before.length)));
          else out.write(`\r\u001b[K${pendingPrompt}${sanitize(line)}`);
        }
        if (r.cancel) {
          out.write("\n");
          close();
          throw new SetupCancelled();
        }
        if (r.done) {
          ahead = r.rest + ahead;
          out.write("\n");
          return line.trim();
        }
      }
    },
  };
}

// The question being answered, for the redraw after a backspace (one question is open at a time).
let pendingPrompt = "";

/** Ask `question` and return the answer; an empty answer is `fallback` when there is one. */
export async function ask(io: AskIo, question: string, fallback?: string, secret = false): Promise<string> {
  pendingPrompt = `${question}${fallback ? ` [${fallback}]` : ""}: `;
  io.write(pendingPrompt);
  const answer = await io.readLine(secret);
  return answer === "" && fallback !== undefined ? fallback : answer;
}

/** A numbered choice: the answer is the chosen index; asked again until it is one of the numbers. */
export async function choose(
  io: AskIo,
  title: string,
  options: readonly string[],
  fallback = 0,
): Promise<number> {
  io.write(`${title}\n`);
  for (const [i, o] of options.entries()) io.write(`  ${String(i + 1).padStart(2)}  ${o}\n`);
  for (;;) {
    const a = await ask(io, `Choose 1-${options.length}`, String(fallback + 1));
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= options.length) return n - 1;
    io.write(`"${sanitize(a)}" is not one of the numbers 1 to ${options.length}\n`);
  }
}

/** A numbered choice among labelled options: the chosen option itself, so no caller maps an index back. */
export async function chooseOption<T extends { readonly label: string }>(
  io: AskIo,
  title: string,
  options: readonly T[],
  fallback = 0,
): Promise<T> {
  const labels = options.map((o) => o.label);
  const option = options[await choose(io, title, labels, fallback)];
  // choose answers only an index into the list: this is reached with an empty list alone
  if (option === undefined) throw new Error(`no options for "${title}"`);
  return option;
}

/** A yes/no question; Enter takes `fallback`. */
export async function confirm(io: AskIo, question: string, fallback: boolean): Promise<boolean> {
  for (;;) {
    const a = (await ask(io, `${question} ${fallback ? "[Y/n]" : "[y/N]"}`)).toLowerCase();
    if (a === "") return fallback;
    if (a === "y" || a === "yes") return true;
    if (a === "n" || a === "no") return false;
    io.write("answer y or n\n");
  }
}

/** Ask until `check` passes; it returns the problem in one line (shown before the question again). */
export async function askValid(
  io: AskIo,
  question: string,
  fallback: string | undefined,
  check: (answer: string) => string | undefined,
): Promise<string> {
  for (;;) {
    const a = await ask(io, question, fallback);
    const problem = check(a);
    if (problem === undefined) return a;
    io.write(`${problem}\n`);
  }
}

/** An answer quoted in an error line, inert. */
export const shown = (a: string) => `"${sanitize(a)}"`;
