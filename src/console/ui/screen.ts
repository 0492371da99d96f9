// The console's render model: one Screen owns the terminal; everything the console shows goes through it.
//
//   scrollback   lines given to commit(); written once, above the live region, then owned by the terminal.
//                Finished blocks of text, tool lines, notices. The last KEEP_LINES are kept: on a width
//                change the screen and scrollback are erased and they are printed again in the new width.
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
//   screen.clear()                        erase the screen and its scrollback, and forget the kept lines
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
import { KeptLines } from "./kept-lines.ts";
import type { TerminalLike } from "./process-terminal.ts";

export interface Component {
  render(width: number): string[];
  cursor?(): { row: number; col: number } | undefined;
}

const FRAME_MS = 16;
/** a width change is acted on once it has held this long: a dragged window edge sends dozens */
const SETTLE_MS = 60;
/** committed lines kept to be printed again after a width change */
const KEEP_LINES = 10_000;
// Synchronized output (DEC mode 2026): terminals that know it show each frame at once; others ignore it.
const SYNC_ON = "\u001b[?2026h";
const SYNC_OFF = "\u001b[?2026l";
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
const CLEAR_DOWN = "\u001b[J";
const CLEAR_LINE = "\u001b[2K";
// Home, erase the screen, erase the scrollback (xterm's E3, which tmux, VTE, kitty and Windows Terminal know).
const CLEAR_ALL = "\u001b[H\u001b[2J\u001b[3J";
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
  /** another program has the terminal (suspend/resume) */
  private suspended = false;
  private cursorHidden = false;
  private readonly offResize: () => void;
  private readonly kept = new KeptLines(KEEP_LINES);
  /** a width seen but not acted on yet, and since when */
  private settling: { cols: number; at: number } | undefined;

  constructor(
    private readonly term: TerminalLike,
    readonly caps: TermCaps,
    private readonly settleMs = SETTLE_MS,
  ) {
    this.drawnColumns = term.columns;
    // A resize asks for the next frame at once (a new width waits in draw() until it has settled).
    this.offResize = caps.cursor ? term.onResize(() => this.flush()) : () => {};
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

  /** The committed lines kept for a resize (the transcript search reads them), oldest first. */
  transcript(): string[] {
    return this.kept.lines();
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
    this.kept.push(lines);
    this.pending.push(...lines.flatMap((l) => wrap(l, w)));
    this.invalidate();
  }

  /**
   * Erase the screen and its scrollback (`/clear`). What was committed is gone, also from the lines kept
   * for a resize; the live region is drawn again at the top.
   */
  clear(): void {
    this.kept.clear();
    this.pending = [];
    if (!this.caps.cursor || this.stopped) return;
    this.term.write(CLEAR_ALL);
    this.drawn = [];
    this.cursorRow = 0;
    this.cursorCol = 0;
    this.invalidate();
  }

  invalidate(): void {
    if (!this.caps.cursor || this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, FRAME_MS);
  }

  flush(force = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.caps.cursor && !this.stopped) this.draw(force);
  }

  /**
   * Hand the terminal to another program (the user's editor): what is pending is written, the live region
   * erased, the cursor shown where it began, and nothing is drawn until resume() — which draws the live
   * region afresh from wherever the cursor was left.
   */
  suspend(): void {
    if (this.stopped || this.suspended) return;
    this.flush(true);
    this.suspended = true;
    if (!this.caps.cursor) return;
    this.term.write(`${this.moveTo(0)}${this.eraseDown()}${this.cursorHidden ? SHOW_CURSOR : ""}`);
    this.cursorHidden = false;
    this.drawn = [];
  }

  resume(): void {
    if (!this.suspended) return;
    this.suspended = false;
    this.cursorRow = 0;
    this.cursorCol = 0;
    this.flush(true);
  }

  stop(): void {
    if (this.stopped) return;
    this.flush(true);
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

  private draw(force = false): void {
    if (this.suspended) return;
    const cols = this.term.columns;
    let out = "";
    if (cols !== this.drawnColumns) {
      if (!force && !this.settled(cols)) return;
      out = this.repaint(cols);
    }
    const width = Math.max(10, cols - 1);
    const { lines, cursor } = this.compose(width);
    let from: number;
    if (this.pending.length > 0) {
      out += `${this.moveTo(0)}${this.eraseDown()}${this.pending.join("\r\n")}\r\n`;
      this.pending = [];
      this.drawn = [];
      from = 0;
    } else {
      from = 0;
      while (from < lines.length && from < this.drawn.length && lines[from] === this.drawn[from]) from++;
      if (from === lines.length && from === this.drawn.length) {
        const moved = out + this.placeCursor(cursor, lines);
        if (moved) this.term.write(moved);
        return;
      }
      if (from < this.drawn.length || this.drawn.length === 0)
        out += `${this.moveTo(from)}${this.eraseDown()}`;
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
    out += this.placeCursor(cursor, lines);
    this.term.write(SYNC_ON + out + SYNC_OFF);
  }

  /**
   * Erase the live region from the cursor's row down. Not with one ED from the row's start: when the live
   * region sits at the top of the screen that is an ED at home, which tmux (scroll-on-clear) and others
   * take as "clear the screen" and push into the scrollback — a prompt erased that way stays there.
   */
  private eraseDown(): string {
    const below = this.drawn.length - this.cursorRow - 1;
    return below > 0 ? `${CLEAR_LINE}\u001b[B${CLEAR_DOWN}\u001b[A` : CLEAR_LINE;
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

  /** Whether a new width has held for settleMs; if not, a frame is asked for when it will have. */
  private settled(cols: number): boolean {
    const now = Date.now();
    if (this.settling?.cols !== cols) this.settling = { cols, at: now };
    const wait = this.settling.at + this.settleMs - now;
    if (wait <= 0) {
      this.settling = undefined;
      return true;
    }
    if (!this.timer)
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.draw();
      }, wait);
    return false;
  }

  /**
   * The width changed. The terminal has re-wrapped (or cut) what it shows in its own way, and a frame still
   * on its way when it did so was laid out for the old width, so nothing on screen is known to be where it
   * was. The screen and its scrollback are erased and the kept lines printed again in the new width; the
   * live region is then drawn under them.
   */
  private repaint(cols: number): string {
    this.drawnColumns = cols;
    this.pending = [];
    this.drawn = [];
    this.cursorRow = 0;
    this.cursorCol = 0;
    const w = Math.max(10, cols - 1);
    const dropped = this.kept.dropped;
    const head = dropped > 0 ? [`⋯ ${dropped} earlier lines are not shown again after a resize`] : [];
    let out = CLEAR_ALL;
    for (const l of [...head, ...this.kept.lines()]) for (const row of wrap(l, w)) out += `${row}\r\n`;
    return out;
  }
}
