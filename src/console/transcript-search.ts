// Searching the transcript (Ctrl-F, or /find TEXT): over the lines the screen kept of the scrollback
// (src/console/ui/kept-lines.ts), shown in the live region as a window around the current match with
// every match highlighted — the terminal's own scrollback cannot be marked in place. Typing edits the
// query (matches update as you type; lower case matches any case), Enter keeps it, then n goes to the
// previous (older) match and N to the next (newer) one; Esc closes. The kept lines are our own, already
// sanitised and styled: styling is taken off to match and draw them plain.
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate, visibleWidth } from "../terminal/width.ts";
import type { InputEvent } from "./input/keys.ts";
import type { Component } from "./ui/screen.ts";

const ESC = String.fromCharCode(27);
const STYLING = new RegExp(
  `${ESC}\\[[0-9;?]*[A-Za-z]|${ESC}\\][^${String.fromCharCode(7)}${ESC}]*(?:${String.fromCharCode(7)}|${ESC}\\\\)`,
  "g",
);

/** `line` without its escape sequences (the kept lines' styling). */
export function plainText(line: string): string {
  return line.replace(STYLING, "");
}

/** Lines shown around the current match. */
export const SEARCH_WINDOW = 9;

interface Match {
  line: number;
  col: number;
}

export type SearchStep = "close" | undefined;

export class TranscriptSearch implements Component {
  private readonly lines: string[];
  private query = "";
  private typing: boolean;
  private matches: Match[] = [];
  private at = -1;

  constructor(
    kept: readonly string[],
    private readonly s: Style,
    query = "",
  ) {
    this.lines = kept.map(plainText);
    this.typing = query === "";
    this.setQuery(query);
  }

  /** How many matches the query has (for /find's one line when there are none). */
  get count(): number {
    return this.matches.length;
  }

  private setQuery(q: string): void {
    this.query = q;
    this.matches = [];
    if (q !== "") {
      const smart = q === q.toLowerCase();
      const needle = smart ? q.toLowerCase() : q;
      this.lines.forEach((l, line) => {
        const hay = smart ? l.toLowerCase() : l;
        for (let col = hay.indexOf(needle); col !== -1; col = hay.indexOf(needle, col + needle.length))
          this.matches.push({ line, col });
      });
    }
    // The newest match first: what was just said is what is looked for most often.
    this.at = this.matches.length - 1;
  }

  private move(by: number): void {
    const n = this.matches.length;
    if (n > 0) this.at = (this.at + by + n) % n;
  }

  handle(ev: InputEvent): SearchStep {
    if (ev.type === "paste") {
      if (this.typing) this.setQuery(this.query + (ev.text.split("\n")[0] ?? ""));
      return undefined;
    }
    if (ev.name === "escape" || (ev.ctrl && (ev.ch === "c" || ev.ch === "g"))) return "close";
    if (this.typing) {
      if (ev.name === "enter") this.typing = this.query === "";
      else if (ev.name === "backspace") this.setQuery(Array.from(this.query).slice(0, -1).join(""));
      else if (ev.name === "up") this.move(-1);
      else if (ev.name === "down") this.move(1);
      else if (ev.name === "char" && !ev.ctrl && !ev.alt && ev.ch) this.setQuery(this.query + ev.ch);
      return undefined;
    }
    if (ev.name === "char" && !ev.ctrl && !ev.alt && ev.ch === "n") this.move(-1);
    else if (ev.name === "char" && !ev.ctrl && !ev.alt && ev.ch === "N") this.move(1);
    else if (ev.name === "up") this.move(-1);
    else if (ev.name === "down") this.move(1);
    else if ((ev.name === "char" && ev.ch === "/") || (ev.ctrl && ev.ch === "f")) this.typing = true;
    else if (ev.name === "enter" || (ev.name === "char" && ev.ch === "q")) return "close";
    return undefined;
  }

  /** One transcript line, cut to `width` around the current match, every match of the query marked. */
  private line(i: number, width: number): string {
    const text = this.lines[i] ?? "";
    const current = this.matches[this.at];
    const len = this.query.length;
    // A match past the right edge: start the line so that it shows.
    const from =
      current?.line === i && current.col + len > width - 2 ? Math.max(0, current.col + len - width + 4) : 0;
    let out = from > 0 ? "…" : "";
    let pos = from;
    for (const m of this.matches) {
      if (m.line !== i || m.col < from) continue;
      out += text.slice(pos, m.col);
      const hit = text.slice(m.col, m.col + len);
      out += m === current ? this.s.inverse(this.s.bold(hit)) : this.s.yellow(this.s.bold(hit));
      pos = m.col + len;
    }
    out += text.slice(pos);
    return visibleWidth(out) > width ? truncate(out, width) : out;
  }

  render(width: number): string[] {
    const s = this.s;
    const current = this.matches[this.at];
    const out: string[] = [];
    if (current) {
      const first = Math.max(0, current.line - Math.floor(SEARCH_WINDOW / 2));
      const last = Math.min(this.lines.length, first + SEARCH_WINDOW);
      out.push(s.dim(truncate(`── transcript, line ${current.line + 1} of ${this.lines.length} ──`, width)));
      for (let i = first; i < last; i++) out.push(this.line(i, width));
    }
    const where = this.matches.length
      ? `match ${this.at + 1}/${this.matches.length}`
      : this.query
        ? "no match"
        : `${this.lines.length} lines kept`;
    const keys = this.typing ? "Enter keeps the query · ↑/↓ move" : "n older · N newer · / edits the query";
    out.push(
      truncate(
        `${s.yellow("find:")} ${sanitizeLine(this.query)}${this.typing ? "▏" : ""}  ${s.dim(`${where} · ${keys} · Esc closes`)}`,
        width,
      ),
    );
    return out;
  }
}
