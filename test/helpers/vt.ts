// A minimal terminal emulator for render tests: printable text, CR, LF (scrolling into a scrollback),
// cursor up/down/right, erase to end of screen / line, auto-wrap at the last column. Styling (SGR) and
// private modes are accepted and ignored. Anything else is an error: the renderer must not send it.
import type { TerminalLike } from "../../src/console/ui/process-terminal.ts";

const CSI = new RegExp(`^${String.fromCharCode(0x1b)}\\[(\\??)([0-9;]*)([A-Za-z])`);

export class VirtualTerminal implements TerminalLike {
  scrollback: string[] = [];
  grid: string[][];
  row = 0;
  col = 0;
  written = "";
  private listeners: Array<() => void> = [];

  constructor(
    public columns: number,
    public rows: number,
  ) {
    this.grid = Array.from({ length: rows }, () => []);
  }

  onResize(cb: () => void): () => void {
    this.listeners.push(cb);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== cb);
    };
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    while (this.grid.length < rows) this.grid.push([]);
    while (this.grid.length > rows) this.scrollback.push(this.line(this.grid.shift() ?? []));
    this.row = Math.min(this.row, rows - 1);
    for (const l of this.listeners) l();
  }

  private line(cells: string[]): string {
    return cells
      .map((c) => c ?? " ")
      .join("")
      .trimEnd();
  }

  private lineFeed(): void {
    if (this.row === this.rows - 1) {
      this.scrollback.push(this.line(this.grid.shift() ?? []));
      this.grid.push([]);
    } else this.row++;
  }

  write(s: string): void {
    this.written += s;
    for (let i = 0; i < s.length; ) {
      const ch = String.fromCodePoint(s.codePointAt(i) ?? 0);
      if (ch === "\u001b") {
        const m = CSI.exec(s.slice(i));
        if (!m) throw new Error(`unsupported escape at ${JSON.stringify(s.slice(i, i + 8))}`);
        i += m[0].length;
        const [, priv, params, final] = m;
        const n = Number(params || "1");
        if (priv) continue; // private modes: cursor visibility, synchronized output
        if (final === "m") continue;
        if (final === "A") this.row = Math.max(0, this.row - n);
        else if (final === "B") this.row = Math.min(this.rows - 1, this.row + n);
        else if (final === "C") this.col = Math.min(this.columns - 1, this.col + n);
        else if (final === "H") [this.row, this.col] = [0, 0];
        else if (final === "J" && params === "2") this.grid = this.grid.map(() => []);
        else if (final === "J" && params === "3") this.scrollback = [];
        else if (final === "J") {
          this.grid[this.row] = (this.grid[this.row] ?? []).slice(0, this.col);
          for (let r = this.row + 1; r < this.rows; r++) this.grid[r] = [];
        } else if (final === "K") this.grid[this.row] = (this.grid[this.row] ?? []).slice(0, this.col);
        else throw new Error(`unsupported CSI ${final}`);
        continue;
      }
      i += ch.length;
      if (ch === "\r") this.col = 0;
      else if (ch === "\n") this.lineFeed();
      else {
        const cp = ch.codePointAt(0) ?? 0;
        if (cp < 0x20) throw new Error(`control character ${cp} sent to the terminal`);
        if (this.col >= this.columns) {
          this.col = 0;
          this.lineFeed();
        }
        const cells = this.grid[this.row] ?? [];
        while (cells.length < this.col) cells.push(" ");
        cells[this.col] = ch;
        this.grid[this.row] = cells;
        this.col++;
      }
    }
  }

  /** Scrollback and screen as text, trailing blank lines dropped. */
  text(): string {
    const all = [...this.scrollback, ...this.grid.map((c) => this.line(c))];
    while (all.length > 0 && all.at(-1) === "") all.pop();
    return all.join("\n");
  }
}
