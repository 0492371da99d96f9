// The console's render model: one Screen owns the terminal; everything the console shows goes through it.
//
//   scrollback   lines given to commit(); written once, above the live region, then owned by the terminal
//                (its scrollback, its reflow on resize). Finished blocks of text, tool lines, notices.
//   live region  the components mounted at the bottom, in `order`, redrawn in place on every frame:
//                the markdown block still streaming, spinner / bash tail / compaction progress, the status
//                line, the input editor. Differential: a frame rewrites only from its first changed line
//                down. At most rows-1 lines tall (the top is cut), so it can always be erased in full.
//
// API (for console parts and the input side):
//   const screen = new Screen(processTerminal(), caps)
//   screen.mount(key, component, order)   add or replace a live component; lower order = higher up
//   screen.unmount(key)
//   screen.commit(lines)                  append finished lines (styled, sanitised) to the scrollback
//   screen.invalidate()                   a component changed: redraw at the next frame (≤ 60/s)
//   screen.flush()                        draw now (before waiting on something outside the screen)
//   screen.width                          columns components should render to
//   screen.stop()                         final frame; the live region stays as last drawn, cursor below
// A Component is { render(width): string[] } — each line at most `width` columns, untrusted text already
// through src/terminal/sanitize.ts — plus an optional cursor(): {row, col} placing the terminal cursor
// (the input editor's caret), relative to that component's lines.
//
// The console mounts, by key and ORDER (src/console/view.ts): "stream" 10, "activity" 50, "status" 80,
// "input" 100. The input editor (src/console/input) mounts under "input" (taking keys itself, calling
// invalidate() on each); an approval or completion menu mounts between status and input.
//
// Without cursor control (TERM=dumb, stdout not a TTY) nothing is redrawn: commit() appends plain lines and
// live components are never drawn, so their owners commit whatever must stay in the transcript.
import type { TermCaps } from "../../terminal/style.ts";
import { visibleWidth, wrap } from "../../terminal/width.ts";

export interface Component {
  render(width: number): string[];
  cursor?(): { row: number; col: number } | undefined;
}

export interface TerminalLike {
  write(s: string): void;
  readonly columns: number;
  readonly rows: number;
  /** subscribe to size changes; returns the unsubscribe */
  onResize(cb: () => void): () => void;
}

export function processTerminal(out: NodeJS.WriteStream = process.stdout): TerminalLike {
  return {
    write: (s) => {
      out.write(s);
    },
    get columns() {
      return out.columns || 80;
    },
    get rows() {
      return out.rows || 24;
    },
    onResize(cb) {
      out.on("resize", cb);
      return () => {
        out.off("resize", cb);
      };
    },
  };
}

const FRAME_MS = 16;
// Synchronized output (DEC mode 2026): terminals that know it show each frame at once; others ignore it.
const SYNC_ON = "\u001b[?2026h";
const SYNC_OFF = "\u001b[?2026l";
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
const CLEAR_DOWN = "\u001b[J";
const up = (n: number) => (n > 0 ? `\u001b[${n}A` : "");
const down = (n: number) => (n > 0 ? `\u001b[${n}B` : "");
const right = (n: number) => (n > 0 ? `\u001b[${n}C` : "");

interface Mounted {
  key: string;
  order: number;
  seq: number;
  component: Component;
}

export class Screen {
  private readonly mounted = new Map<string, Mounted>();
  private seq = 0;
  private pending: string[] = [];
  /** the live lines as last drawn, and where the terminal cursor was left among them */
  private drawn: string[] = [];
  private cursorRow = 0;
  private cursorCol = 0;
  private drawnColumns: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private cursorHidden = false;
  private readonly offResize: () => void;

  constructor(
    private readonly term: TerminalLike,
    readonly caps: TermCaps,
  ) {
    this.drawnColumns = term.columns;
    this.offResize = caps.cursor ? term.onResize(() => this.resized()) : () => {};
  }

  /** Columns to render to: one short of the terminal's, so no line ever lands in the auto-wrap column. */
  get width(): number {
    return Math.max(10, this.term.columns - 1);
  }

  mount(key: string, component: Component, order = 0): void {
    const prev = this.mounted.get(key);
    this.mounted.set(key, { key, order, seq: prev?.seq ?? ++this.seq, component });
    this.invalidate();
  }

  unmount(key: string): void {
    if (this.mounted.delete(key)) this.invalidate();
  }

  has(key: string): boolean {
    return this.mounted.has(key);
  }

  commit(lines: string[]): void {
    if (lines.length === 0) return;
    if (!this.caps.cursor) {
      // Plain output: the terminal (or the file) gets whole lines and wraps them itself.
      if (!this.stopped) this.term.write(`${lines.join("\n")}\n`);
      return;
    }
    const w = this.width;
    this.pending.push(...lines.flatMap((l) => wrap(l, w)));
    this.invalidate();
  }

  invalidate(): void {
    if (!this.caps.cursor || this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, FRAME_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.caps.cursor && !this.stopped) this.draw();
  }

  stop(): void {
    if (this.stopped) return;
    this.flush();
    this.stopped = true;
    this.offResize();
    if (!this.caps.cursor) return;
    // Leave the cursor on a fresh line below whatever stays on screen.
    const last = this.drawn.length - 1;
    let s = "";
    if (last >= 0) s += `${down(last - this.cursorRow)}\r\n`;
    if (this.cursorHidden) s += SHOW_CURSOR;
    this.term.write(s);
    this.drawn = [];
  }

  private compose(width: number): { lines: string[]; cursor: { row: number; col: number } | undefined } {
    const parts = [...this.mounted.values()].sort((a, b) => a.order - b.order || a.seq - b.seq);
    const lines: string[] = [];
    let cursor: { row: number; col: number } | undefined;
    for (const p of parts) {
      const own = p.component.render(width).flatMap((l) => wrap(l, width));
      const c = p.component.cursor?.();
      if (c) cursor = { row: lines.length + c.row, col: Math.min(c.col, width) };
      lines.push(...own);
    }
    const max = Math.max(1, this.term.rows - 1);
    if (lines.length > max) {
      const cut = lines.length - max;
      lines.splice(0, cut);
      if (cursor) cursor = cursor.row >= cut ? { row: cursor.row - cut, col: cursor.col } : undefined;
    }
    return { lines, cursor };
  }

  /** Escape codes moving the cursor from where it was left to the first column of live row `row`. */
  private moveTo(row: number): string {
    const s = row < this.cursorRow ? up(this.cursorRow - row) : down(row - this.cursorRow);
    this.cursorRow = row;
    this.cursorCol = 0;
    return `${s}\r`;
  }

  private draw(): void {
    const width = this.width;
    const { lines, cursor } = this.compose(width);
    let out = "";
    let from: number;
    if (this.pending.length > 0) {
      out += `${this.moveTo(0)}${CLEAR_DOWN}${this.pending.join("\r\n")}\r\n`;
      this.pending = [];
      this.drawn = [];
      from = 0;
    } else {
      from = 0;
      while (from < lines.length && from < this.drawn.length && lines[from] === this.drawn[from]) from++;
      if (from === lines.length && from === this.drawn.length) {
        const moved = this.placeCursor(cursor, lines);
        if (moved) this.term.write(moved);
        return;
      }
      if (from < this.drawn.length || this.drawn.length === 0) out += `${this.moveTo(from)}${CLEAR_DOWN}`;
      else out += `${this.moveTo(this.drawn.length - 1)}\r\n`; // appending below the last drawn line
    }
    out += lines.slice(from).join("\r\n");
    if (lines.length > 0) {
      this.cursorRow = lines.length - 1;
      this.cursorCol = visibleWidth(lines.at(-1) ?? "");
    } else {
      this.cursorRow = 0;
      this.cursorCol = 0;
    }
    this.drawn = lines;
    this.drawnColumns = this.term.columns;
    out += this.placeCursor(cursor, lines);
    this.term.write(SYNC_ON + out + SYNC_OFF);
  }

  /** Put the terminal cursor where the input wants it, or hide it; returns the codes. */
  private placeCursor(cursor: { row: number; col: number } | undefined, lines: string[]): string {
    if (!cursor || lines.length === 0) {
      if (this.cursorHidden) return "";
      this.cursorHidden = true;
      return HIDE_CURSOR;
    }
    let s = "";
    if (cursor.row !== this.cursorRow || cursor.col !== this.cursorCol) {
      s += `${this.moveTo(cursor.row)}${right(cursor.col)}`;
      this.cursorCol = cursor.col;
    }
    if (this.cursorHidden) {
      this.cursorHidden = false;
      s += SHOW_CURSOR;
    }
    return s;
  }

  /**
   * The terminal was resized. A narrower one re-wraps the live lines already on screen (reflow), so the
   * way back to the top of the live region is counted in the new width; then the region is drawn afresh.
   */
  private resized(): void {
    if (this.stopped) return;
    const cols = this.term.columns;
    if (cols !== this.drawnColumns && this.drawn.length > 0) {
      const rowsOf = (w: number) => (cols > 0 && w > cols ? Math.ceil(w / cols) : 1);
      let rowsUp = 0;
      for (let i = 0; i < this.cursorRow; i++) rowsUp += rowsOf(visibleWidth(this.drawn[i] ?? ""));
      if (this.cursorCol > 0 && cols > 0) rowsUp += Math.floor((this.cursorCol - 1) / cols);
      this.term.write(`${up(rowsUp)}\r${CLEAR_DOWN}`);
      this.drawn = [];
      this.cursorRow = 0;
      this.cursorCol = 0;
    }
    this.drawnColumns = cols;
    this.flush();
  }
}
