// Terminal column arithmetic for styled text: how wide a string shows, cutting it to a width, and wrapping
// it into lines — all aware of our own SGR styling (zero width, carried across wrapped lines). Input is
// sanitised text plus our styling, so the only escape sequences here are `ESC [ … m`.

const SGR = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*m`, "y");

/** Columns one code point takes: 0 for combining marks and joiners, 2 for wide (CJK, emoji), else 1. */
export function charWidth(cp: number): number {
  if (cp < 0x300) return cp < 0x20 ? 0 : 1;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    cp === 0x200c ||
    cp === 0x200d ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** Visible columns of `s` (SGR sequences count 0). */
export function visibleWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) === 0x1b) {
      SGR.lastIndex = i;
      const m = SGR.exec(s);
      if (m) {
        i += m[0].length;
        continue;
      }
    }
    const cp = s.codePointAt(i) ?? 0;
    w += charWidth(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return w;
}

/** Split into SGR codes and single code points, in order. */
function* pieces(s: string): Generator<{ sgr: boolean; text: string; width: number }> {
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) === 0x1b) {
      SGR.lastIndex = i;
      const m = SGR.exec(s);
      if (m) {
        yield { sgr: true, text: m[0], width: 0 };
        i += m[0].length;
        continue;
      }
    }
    const cp = s.codePointAt(i) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    yield { sgr: false, text: s.slice(i, i + len), width: charWidth(cp) };
    i += len;
  }
}

/**
 * The styling in effect after a run of SGR codes, as codes to re-open it on a new line. Tracked by kind
 * (colour, weight, italic, …) so a long styled paragraph does not accumulate codes.
 */
class SgrState {
  private readonly on = new Map<string, string>();
  apply(code: string): void {
    const params = code.slice(2, -1);
    if (params === "" || params === "0") {
      this.on.clear();
      return;
    }
    for (const p of params.split(";")) {
      const n = Number(p);
      const kind =
        (n >= 30 && n <= 39) || (n >= 90 && n <= 97)
          ? "fg"
          : (n >= 40 && n <= 49) || (n >= 100 && n <= 107)
            ? "bg"
            : n === 1 || n === 2 || n === 22
              ? "weight"
              : n === 3 || n === 23
                ? "italic"
                : n === 4 || n === 24
                  ? "underline"
                  : n === 7 || n === 27
                    ? "inverse"
                    : n === 9 || n === 29
                      ? "strike"
                      : `other${n}`;
      const closing = n === 39 || n === 49 || n === 22 || n === 23 || n === 24 || n === 27 || n === 29;
      if (closing) this.on.delete(kind);
      else this.on.set(kind, `\u001b[${p}m`);
    }
  }
  get open(): string {
    return [...this.on.values()].join("");
  }
  get active(): boolean {
    return this.on.size > 0;
  }
}

/** `s` cut to at most `width` columns, `…` marking the cut; styling is closed at the end. */
export function truncate(s: string, width: number, ellipsis = "…"): string {
  if (visibleWidth(s) <= width) return s;
  const room = Math.max(0, width - visibleWidth(ellipsis));
  let out = "";
  let w = 0;
  const state = new SgrState();
  for (const p of pieces(s)) {
    if (p.sgr) {
      out += p.text;
      state.apply(p.text);
      continue;
    }
    if (w + p.width > room) break;
    out += p.text;
    w += p.width;
  }
  return `${out}${state.active ? "\u001b[0m" : ""}${width > 0 ? ellipsis : ""}`;
}

/** `s` padded on the left with spaces to `width` columns (never cut). */
export function padStart(s: string, width: number): string {
  const w = visibleWidth(s);
  return w >= width ? s : " ".repeat(width - w) + s;
}

/** `s` padded with spaces to `width` columns (never cut). */
export function padEnd(s: string, width: number): string {
  const w = visibleWidth(s);
  return w >= width ? s : s + " ".repeat(width - w);
}

/** `s` cut after `cols` columns: the head, the rest (its styling re-opened) and the rest's width. */
function splitAt(s: string, cols: number): [string, string, number] {
  const state = new SgrState();
  let head = "";
  let w = 0;
  let i = 0;
  for (const p of pieces(s)) {
    if (!p.sgr && w + p.width > cols) break;
    head += p.text;
    i += p.text.length;
    if (p.sgr) state.apply(p.text);
    else w += p.width;
  }
  const tail = s.slice(i);
  return [head, state.open + tail, visibleWidth(tail)];
}

/**
 * One line of styled text wrapped to `width` columns (`rest` for the lines after the first): breaks at
 * spaces where it can, inside a word when it must (nothing is ever dropped), with the styling carried
 * over to each continuation line.
 */
function wrapOne(line: string, width: number, rest = width): string[] {
  if (visibleWidth(line) <= width) return [line];
  const out: string[] = [];
  const state = new SgrState();
  let cur = "";
  let curW = 0;
  // The current line up to (and excluding) its last space, for breaking at a word boundary.
  let breakAt = -1;
  let breakW = 0;
  let breakState = "";
  const flush = (text: string) =>
    out.push(state.active || text.includes("\u001b[") ? `${text}\u001b[0m` : text);
  for (const p of pieces(line)) {
    if (p.sgr) {
      cur += p.text;
      state.apply(p.text);
      continue;
    }
    if (curW + p.width > (out.length === 0 ? width : rest)) {
      if (p.text === " ") {
        // A space at the edge is the break itself.
        flush(cur);
        cur = state.open;
        curW = 0;
        breakAt = -1;
        continue;
      }
      if (breakAt > 0) {
        const head = cur.slice(0, breakAt);
        const tail = cur.slice(breakAt + 1);
        flush(head);
        cur = breakState + tail;
        curW -= breakW + 1;
        // A continuation line narrower than the first (a hanging indent) may not hold the moved word.
        while (curW + p.width > rest) {
          const [cut, left, leftW] = splitAt(cur, rest);
          flush(cut);
          cur = left;
          curW = leftW;
        }
      } else {
        flush(cur);
        cur = state.open;
        curW = 0;
      }
      breakAt = -1;
    }
    if (p.text === " ") {
      breakAt = cur.length;
      breakW = curW;
      breakState = state.open;
    }
    cur += p.text;
    curW += p.width;
  }
  if (cur !== "" || out.length === 0) out.push(cur);
  return out;
}

/**
 * Styled text (may hold "\n") wrapped to `width` columns, one string per screen line. With `hang`, the
 * continuation lines of each line start that many spaces in (a hanging indent), still within `width`.
 */
export function wrap(text: string, width: number, hang = 0): string[] {
  const w = Math.max(1, width);
  const h = Math.min(hang, w - 1);
  const pad = " ".repeat(h);
  return text.split("\n").flatMap((l) => wrapOne(l, w, w - h).map((x, i) => (i === 0 ? x : pad + x)));
}

/** The width of the terminal stdout is, or undefined when it is a pipe or a file (no width to fit). */
export function terminalColumns(): number | undefined {
  return process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined;
}
