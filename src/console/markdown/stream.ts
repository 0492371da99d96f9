// Markdown that arrives in pieces. Finished blocks go to the scrollback as soon as the next block begins;
// the block still being written stays in the live region and is re-rendered as it grows (an unclosed
// fence shows as code, a half table as a table), so nothing is printed twice and nothing is lost.
import { Lexer, type Token } from "marked";
import { StreamSanitizer } from "../../terminal/sanitize.ts";
import type { Component } from "../ui/screen.ts";
import type { MarkdownRenderer } from "./render.ts";

const lex = (src: string): Token[] => Lexer.lex(src, { gfm: true });

export class MarkdownStream implements Component {
  private readonly sanitizer = new StreamSanitizer();
  /** sanitised text of the current message not yet committed */
  private pending = "";
  private committedAny = false;
  private cache: { key: string; width: number; lines: string[] } | undefined;

  constructor(
    private readonly md: MarkdownRenderer,
    private readonly commit: (lines: string[]) => void,
    private readonly width: () => number,
  ) {}

  get active(): boolean {
    return this.pending !== "";
  }

  push(delta: string): void {
    this.pending += this.sanitizer.push(delta);
    // Blocks end at line breaks: nothing can have finished without one.
    if (delta.includes("\n")) this.commitFinished();
  }

  /** The message is complete: everything left goes to the scrollback. */
  finish(): void {
    this.pending += this.sanitizer.end();
    if (this.pending.trim() !== "") this.emit(lex(this.pending));
    this.pending = "";
    this.committedAny = false;
    this.cache = undefined;
  }

  private emit(tokens: Token[]): void {
    const lines = this.md.blocks(tokens, this.width());
    if (lines.length === 0) return;
    this.commit(this.committedAny ? ["", ...lines] : lines);
    this.committedAny = true;
  }

  /** Commit every block before the last one; keep the last (it may still grow) pending. */
  private commitFinished(): void {
    const tokens = lex(this.pending);
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last]?.type === "space") last--;
    if (last <= 0) return;
    const done = tokens.slice(0, last);
    let raw = "";
    for (const t of done) raw += t.raw;
    // Only cut where the lexer's pieces are exactly our text; otherwise keep it all live until the end.
    if (!this.pending.startsWith(raw)) return;
    let rest = this.pending.slice(raw.length);
    // Leading blank lines belong to the gap between blocks, which the renderer draws itself.
    rest = rest.replace(/^(?:[ \t]*\n)+/, "");
    this.emit(done);
    this.pending = rest;
    this.cache = undefined;
  }

  render(width: number): string[] {
    if (this.pending.trim() === "") return [];
    if (this.cache?.key === this.pending && this.cache.width === width) return this.cache.lines;
    const body = this.md.blocks(lex(this.pending), width);
    const lines = this.committedAny ? ["", ...body] : body;
    this.cache = { key: this.pending, width, lines };
    return lines;
  }
}
