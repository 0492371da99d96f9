// The input line as a live-region component over node:readline, which keeps the editing (keys, history)
// while the Screen draws: readline writes into a sink, and this component shows its line and caret. The
// console's input side replaces it with its own editor behind the same Component interface.
import type { Interface } from "node:readline";
import { Writable } from "node:stream";
import { sanitizeLine } from "../../terminal/sanitize.ts";
import { charWidth, visibleWidth } from "../../terminal/width.ts";
import type { Component } from "./screen.ts";

/** Where readline's own echo goes when the Screen draws the line instead. */
export function readlineSink(): Writable {
  return new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });
}

/** `text` cut into pieces of at most `width` columns (hard breaks, so the caret maps simply). */
function chunks(text: string, width: number): string[] {
  const out: string[] = [];
  let cur = "";
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0) ?? 0);
    if (w + cw > width) {
      out.push(cur);
      cur = "";
      w = 0;
    }
    cur += ch;
    w += cw;
  }
  out.push(cur);
  return out;
}

export class ReadlineInput implements Component {
  private width = 80;
  /** shown instead of the normal prompt, e.g. while an approval question waits for y/N */
  prompt: string;

  constructor(
    private readonly rl: Interface,
    readonly defaultPrompt: string,
  ) {
    this.prompt = defaultPrompt;
  }

  private parts(): { before: string; all: string } {
    const line = this.rl.line ?? "";
    const at = this.rl.cursor ?? line.length;
    return { before: this.prompt + sanitizeLine(line.slice(0, at)), all: this.prompt + sanitizeLine(line) };
  }

  render(width: number): string[] {
    this.width = width;
    return chunks(this.parts().all, width);
  }

  cursor(): { row: number; col: number } {
    const col = visibleWidth(this.parts().before);
    return { row: Math.floor(col / this.width), col: col % this.width };
  }
}
