// A list to choose one row from, drawn in place of the input line (the /resume session picker): ↑/↓
// (or Ctrl-P/Ctrl-N) move, PgUp/PgDn and Home/End jump, typing filters the rows, Enter takes the marked
// row, Esc or Ctrl-C leaves without choosing. Rows are untrusted text (session titles come from the
// model): every row goes through the prompt's cleaner before it is drawn.
import type { InputEvent } from "./keys.ts";

export interface PickRow {
  /** what the row is (a session title) */
  label: string;
  /** shown dim after the label (age, size, id) */
  detail: string;
}

export interface PickRequest {
  title: string;
  /** what Enter does, for the key line ("resume") */
  action: string;
  rows: PickRow[];
  /** the row marked first */
  initial?: number;
  /** a row became the marked one (index into rows): a live preview of the choice */
  onMark?: (index: number) => void;
  /** lines shown under the list for the marked row (index into rows), e.g. a session's last exchange */
  preview?: (index: number) => readonly string[];
}

/** How the picker draws (the prompt's text functions). */
export interface PickerText {
  clean(s: string): string;
  dim(s: string): string;
  yellow(s: string): string;
  /** columns `s` takes */
  width(s: string): number;
  /** `s` cut to `width` columns */
  fit(s: string, width: number): string;
}

/** Rows shown at once; the list scrolls to keep the marked one in view. */
export const PICKER_ROWS = 10;

export type PickOutcome = { kind: "chosen"; index: number } | { kind: "cancel" } | undefined;

export class Picker {
  private filter = "";
  /** indexes into req.rows that match the filter */
  private shown: number[];
  /** position of the marked row in `shown` */
  private at: number;
  private top = 0;

  constructor(readonly req: PickRequest) {
    this.shown = req.rows.map((_, i) => i);
    this.at = Math.min(Math.max(0, req.initial ?? 0), Math.max(0, this.shown.length - 1));
    this.scroll();
  }

  /** One key: moves, filters, or ends the choice. */
  handle(ev: InputEvent): PickOutcome {
    if (ev.type === "paste") {
      this.setFilter(this.filter + (ev.text.split("\n")[0] ?? ""));
      return undefined;
    }
    const ctrl = (ch: string) => ev.ctrl && ev.ch === ch;
    if (ev.name === "escape" || ctrl("c") || ctrl("g")) return { kind: "cancel" };
    if (ev.name === "enter") {
      const index = this.shown[this.at];
      return index === undefined ? undefined : { kind: "chosen", index };
    }
    if (ev.name === "up" || ctrl("p")) this.move(-1);
    else if (ev.name === "down" || ctrl("n")) this.move(1);
    else if (ev.name === "pageup") this.move(-PICKER_ROWS);
    else if (ev.name === "pagedown") this.move(PICKER_ROWS);
    else if (ev.name === "home") this.move(-this.shown.length);
    else if (ev.name === "end") this.move(this.shown.length);
    else if (ev.name === "backspace") this.setFilter(Array.from(this.filter).slice(0, -1).join(""));
    else if (ev.name === "char" && !ev.ctrl && !ev.alt && ev.ch) this.setFilter(this.filter + ev.ch);
    return undefined;
  }

  private move(by: number): void {
    if (this.shown.length === 0) return;
    this.at = Math.min(this.shown.length - 1, Math.max(0, this.at + by));
    this.scroll();
  }

  private setFilter(filter: string): void {
    const marked = this.shown[this.at];
    this.filter = filter;
    const needle = filter.toLowerCase();
    this.shown = this.req.rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => `${r.label} ${r.detail}`.toLowerCase().includes(needle))
      .map(({ i }) => i);
    // Keep the same row marked when it still matches, else the first match.
    const again = marked === undefined ? -1 : this.shown.indexOf(marked);
    this.at = Math.max(0, again);
    this.top = 0;
    this.scroll();
  }

  private scroll(): void {
    const marked = this.shown[this.at];
    if (marked !== undefined) this.req.onMark?.(marked);
    if (this.at < this.top) this.top = this.at;
    if (this.at >= this.top + PICKER_ROWS) this.top = this.at - PICKER_ROWS + 1;
  }

  render(width: number, t: PickerText): string[] {
    const lines = [t.yellow(t.fit(t.clean(this.req.title), width))];
    const end = Math.min(this.shown.length, this.top + PICKER_ROWS);
    for (let p = this.top; p < end; p++) {
      const row = this.req.rows[this.shown[p] as number] as PickRow;
      const mark = p === this.at ? "› " : "  ";
      const label = t.fit(`${mark}${t.clean(row.label)}`, width);
      const room = width - t.width(label) - 2;
      const detail = room > 4 ? `  ${t.dim(t.fit(t.clean(row.detail), room))}` : "";
      lines.push(p === this.at ? t.yellow(label) + detail : label + detail);
    }
    if (this.shown.length === 0) lines.push(t.dim("  (nothing matches)"));
    const marked = this.shown[this.at];
    if (marked !== undefined && this.req.preview)
      for (const l of this.req.preview(marked)) lines.push(t.dim(t.fit(`  ${t.clean(l)}`, width)));
    const where = this.shown.length > PICKER_ROWS ? ` · ${this.at + 1}/${this.shown.length}` : "";
    const filter = this.filter ? ` · filter: ${t.clean(this.filter)}` : " · type to filter";
    lines.push(
      t.dim(t.fit(`↑/↓ move · Enter ${t.clean(this.req.action)} · Esc cancel${filter}${where}`, width)),
    );
    return lines;
  }
}
