// The input line editor's model: a multi-line buffer and a cursor, edited the way readline users expect
// (Ctrl-A/E/K/U/W/Y, word motions, Alt-B/F/D). Large pastes are held aside and shown as one
// "[pasted N lines]" token that moves and deletes as a unit; submit() puts the whole text back.

/** Pastes with more lines than this (or more characters than PASTE_COLLAPSE_CHARS) are collapsed. */
export const PASTE_COLLAPSE_LINES = 3;
export const PASTE_COLLAPSE_CHARS = 1000;

const isWordChar = (ch: string) => /[\p{L}\p{N}_]/u.test(ch);

export class LineEditor {
  text = "";
  /** an index into `text`, always at a code point boundary and never inside a paste token */
  cursor = 0;
  private pastes = new Map<string, string>();
  private killed = "";

  get isEmpty(): boolean {
    return this.text === "";
  }

  /** Set the whole buffer (history recall), cursor at the end. */
  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
    this.pastes.clear();
  }

  clear(): void {
    this.set("");
  }

  insert(s: string): void {
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  newline(): void {
    this.insert("\n");
  }

  /** A paste: inserted as is when small, else as a token standing for the whole text. */
  paste(s: string): void {
    // A paste that ends with a newline has as many lines as newlines: the last one is not a line.
    const lines = s.replace(/\n$/, "").split("\n").length;
    if (lines <= PASTE_COLLAPSE_LINES && s.length <= PASTE_COLLAPSE_CHARS) {
      this.insert(s);
      return;
    }
    let label = `[pasted ${lines} lines]`;
    for (let n = 2; this.pastes.has(label) || this.text.includes(label); n++)
      label = `[pasted ${lines} lines #${n}]`;
    this.pastes.set(label, s);
    this.insert(label);
  }

  /** The whole text, pastes expanded (what submit() would send), the editor left as it is. */
  expanded(): string {
    let out = this.text;
    for (const [label, body] of this.pastes) out = out.split(label).join(body);
    return out;
  }

  /** The text to send, pastes expanded; the editor is emptied. */
  submit(): string {
    const out = this.expanded();
    this.clear();
    return out;
  }

  /** The token (paste label) that ends at `i`, or starts at `i` when `after`. */
  private tokenAt(i: number, after: boolean): [number, number] | undefined {
    for (const label of this.pastes.keys()) {
      let at = this.text.indexOf(label);
      while (at !== -1) {
        const end = at + label.length;
        if (after ? at === i : end === i) return [at, end];
        if (at < i && i < end) return [at, end];
        at = this.text.indexOf(label, at + 1);
      }
    }
    return undefined;
  }

  private prevBoundary(i: number): number {
    if (i <= 0) return 0;
    const tok = this.tokenAt(i, false);
    if (tok) return tok[0];
    const c = this.text.charCodeAt(i - 1);
    return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  }

  private nextBoundary(i: number): number {
    if (i >= this.text.length) return this.text.length;
    const tok = this.tokenAt(i, true);
    if (tok) return tok[1];
    const c = this.text.charCodeAt(i);
    return c >= 0xd800 && c <= 0xdbff ? i + 2 : i + 1;
  }

  left(): void {
    this.cursor = this.prevBoundary(this.cursor);
  }

  right(): void {
    this.cursor = this.nextBoundary(this.cursor);
  }

  private lineStart(i = this.cursor): number {
    return this.text.lastIndexOf("\n", i - 1) + 1;
  }

  private lineEnd(i = this.cursor): number {
    const n = this.text.indexOf("\n", i);
    return n === -1 ? this.text.length : n;
  }

  /** Ctrl-A / Home: start of the line; at the start already, start of the previous line. */
  home(): void {
    const s = this.lineStart();
    this.cursor = s === this.cursor && s > 0 ? this.lineStart(s - 1) : s;
  }

  /** Ctrl-E / End: end of the line; at the end already, end of the next line. */
  end(): void {
    const e = this.lineEnd();
    this.cursor = e === this.cursor && e < this.text.length ? this.lineEnd(e + 1) : e;
  }

  /** Up within the buffer; false when on the first line (the caller recalls history instead). */
  up(): boolean {
    const s = this.lineStart();
    if (s === 0) return false;
    const col = this.cursor - s;
    const prevStart = this.lineStart(s - 1);
    this.cursor = this.snap(Math.min(prevStart + col, s - 1));
    return true;
  }

  /** Down within the buffer; false when on the last line. */
  down(): boolean {
    const e = this.lineEnd();
    if (e === this.text.length) return false;
    const col = this.cursor - this.lineStart();
    this.cursor = this.snap(Math.min(e + 1 + col, this.lineEnd(e + 1)));
    return true;
  }

  /** Move `i` out of a token or a surrogate pair to the nearest boundary before it. */
  private snap(i: number): number {
    const tok = this.tokenAt(i, false);
    if (tok && tok[0] < i && i < tok[1]) return tok[0];
    const c = this.text.charCodeAt(i);
    return c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
  }

  wordLeft(): void {
    let i = this.cursor;
    while (i > 0 && !isWordChar(this.text[i - 1] as string)) i = this.prevBoundary(i);
    while (i > 0 && isWordChar(this.text[i - 1] as string)) i = this.prevBoundary(i);
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    const n = this.text.length;
    while (i < n && !isWordChar(this.text[i] as string)) i = this.nextBoundary(i);
    while (i < n && isWordChar(this.text[i] as string)) i = this.nextBoundary(i);
    this.cursor = i;
  }

  private cut(from: number, to: number, keep: boolean): void {
    if (from >= to) return;
    if (keep) this.killed = this.text.slice(from, to);
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }

  backspace(): void {
    this.cut(this.prevBoundary(this.cursor), this.cursor, false);
  }

  deleteForward(): void {
    this.cut(this.cursor, this.nextBoundary(this.cursor), false);
  }

  /** Ctrl-K: to the end of the line (at the end: the newline itself). */
  killToEnd(): void {
    const e = this.lineEnd();
    this.cut(this.cursor, e === this.cursor ? Math.min(e + 1, this.text.length) : e, true);
  }

  /** Ctrl-U: to the start of the line. */
  killToStart(): void {
    this.cut(this.lineStart(), this.cursor, true);
  }

  /** Ctrl-W / Alt-Backspace: the word before the cursor. */
  killWordBack(): void {
    const to = this.cursor;
    this.wordLeft();
    this.cut(this.cursor, to, true);
  }

  /** Alt-D: the word after the cursor. */
  killWordForward(): void {
    const from = this.cursor;
    this.wordRight();
    const to = this.cursor;
    this.cursor = from;
    this.cut(from, to, true);
  }

  /** Ctrl-Y: put back what was last killed. */
  yank(): void {
    if (this.killed) this.insert(this.killed);
  }

  /** The line and column (in characters) of the cursor. */
  position(): { line: number; col: number } {
    const before = this.text.slice(0, this.cursor);
    const line = before.split("\n").length - 1;
    return { line, col: Array.from(before.slice(this.lineStart())).length };
  }
}
