// THE sanitiser: the one place that makes untrusted text (model, tools, workers, files, sessions) safe to put
// on a terminal. Every control a terminal would act on is shown as visible text instead — ESC sequences as
// `\e[2K`, C0 controls as `^M`, C1 controls and invisible format characters (bidi overrides, zero-width
// and tag characters) as `\u202e` — so text can never move the cursor, clear the screen, retitle the
// window or hide what it really says. Our own styling is added after sanitising and is the only escape
// sequence the terminal ever receives.
//
// Kept: "\n" (unless `oneLine`), and "\t" expanded to spaces (a tab's width depends on the column, which
// would break every width computation). A CR directly before LF is a line ending and is dropped.

export interface SanitizeOptions {
  /** show "\n" as `\n` too, for text that must stay on one line (titles, arguments) */
  oneLine?: boolean;
  /** spaces per tab (default 4) */
  tabWidth?: number;
}

const ESC = 0x1b;
const BEL = 0x07;

/** Zero-width joiners are part of emoji and some scripts' spelling; they hide nothing. */
const KEEP_FORMAT = new Set([0x200c, 0x200d]);

/** Characters a terminal does not show but which change how (or whether) the text around them reads. */
function invisibleFormat(cp: number): boolean {
  if (KEEP_FORMAT.has(cp)) return false;
  return (
    cp === 0x00ad || // soft hyphen
    cp === 0x034f ||
    cp === 0x061c || // Arabic letter mark (bidi)
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    cp === 0x180e ||
    (cp >= 0x200b && cp <= 0x200f) || // zero-width space, LRM, RLM
    (cp >= 0x2028 && cp <= 0x202e) || // line/paragraph separators, bidi embeddings and overrides
    (cp >= 0x2060 && cp <= 0x206f) || // word joiner, invisible operators, bidi isolates
    cp === 0x3164 ||
    cp === 0xfeff || // BOM / zero-width no-break space
    cp === 0xffa0 ||
    (cp >= 0xfff9 && cp <= 0xfffb) || // interlinear annotations
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe007f) // tag characters ("ASCII smuggling")
  );
}

function uEscape(cp: number): string {
  return `\\u${cp.toString(16).padStart(4, "0")}`;
}

/** `^@`..`^_` for C0 controls, `^?` for DEL. */
function caret(cp: number): string {
  return cp === 0x7f ? "^?" : `^${String.fromCharCode(cp + 0x40)}`;
}

/** Visible form of one printable-ASCII-or-not character inside an escape sequence. */
function visibleByte(cp: number): string {
  if (cp < 0x20 || cp === 0x7f) return caret(cp);
  if (cp >= 0x80 && cp <= 0x9f) return uEscape(cp);
  return String.fromCodePoint(cp);
}

/**
 * Length of the escape sequence starting at `s[i]` (an ESC) and its visible form. Recognises CSI, the
 * string-terminated OSC/DCS/SOS/PM/APC, and two-byte escapes. `incomplete` when `s` ends inside it.
 */
function escapeAt(s: string, i: number): { len: number; shown: string; incomplete: boolean } {
  const next = s.charCodeAt(i + 1);
  if (Number.isNaN(next)) return { len: 1, shown: "\\e", incomplete: true };
  const intro = String.fromCharCode(next);
  if (intro === "[") {
    // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E.
    let j = i + 2;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e)
        return { len: j + 1 - i, shown: `\\e${s.slice(i + 1, j + 1)}`, incomplete: false };
      if (c < 0x20 || c > 0x3f) break; // not part of a CSI: the sequence ends malformed here
      j++;
    }
    const shown = `\\e${s.slice(i + 1, j)}`;
    return { len: j - i, shown, incomplete: j >= s.length };
  }
  if (intro === "]" || intro === "P" || intro === "X" || intro === "^" || intro === "_") {
    // String sequences end at ST (ESC \) or, for OSC, BEL; they never span a line for display purposes.
    let j = i + 2;
    let body = "";
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === BEL) return { len: j + 1 - i, shown: `\\e${intro}${body}\\a`, incomplete: false };
      if (c === ESC && s[j + 1] === "\\")
        return { len: j + 2 - i, shown: `\\e${intro}${body}\\e\\\\`, incomplete: false };
      if (c === ESC && j + 1 >= s.length) break;
      if (c === 0x0a || c === ESC) return { len: j - i, shown: `\\e${intro}${body}`, incomplete: false };
      const cp = s.codePointAt(j) ?? c;
      body += visibleByte(cp);
      j += cp > 0xffff ? 2 : 1;
    }
    return { len: j - i, shown: `\\e${intro}${body}`, incomplete: true };
  }
  return { len: 2, shown: `\\e${visibleByte(next)}`, incomplete: false };
}

/** The visible, inert form of `text`: safe to write to any terminal. */
export function sanitize(text: string, opts: SanitizeOptions = {}): string {
  return sanitizeFrom(text, opts).safe;
}

/**
 * Sanitise `text`; when `holdIncomplete`, an escape sequence or CR cut off at the end is not converted
 * but returned as `rest`, to be prefixed to the next chunk of a stream.
 */
function sanitizeFrom(
  text: string,
  opts: SanitizeOptions,
  holdIncomplete = false,
): { safe: string; rest: string } {
  const tab = " ".repeat(opts.tabWidth ?? 4);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    // Fast path: printable ASCII.
    if (c >= 0x20 && c < 0x7f) {
      let j = i + 1;
      while (j < text.length) {
        const d = text.charCodeAt(j);
        if (d < 0x20 || d >= 0x7f) break;
        j++;
      }
      out += text.slice(i, j);
      i = j;
      continue;
    }
    if (c === 0x0a) {
      out += opts.oneLine ? "\\n" : "\n";
      i++;
      continue;
    }
    if (c === 0x09) {
      out += opts.oneLine ? " " : tab;
      i++;
      continue;
    }
    if (c === 0x0d) {
      if (i + 1 >= text.length && holdIncomplete) return { safe: out, rest: text.slice(i) };
      if (text.charCodeAt(i + 1) === 0x0a && !opts.oneLine) {
        i++; // CRLF line ending: the LF is handled next
        continue;
      }
      out += "^M";
      i++;
      continue;
    }
    if (c === ESC) {
      const e = escapeAt(text, i);
      if (e.incomplete && holdIncomplete && text.length - i < 512) return { safe: out, rest: text.slice(i) };
      out += e.shown;
      i += e.len;
      continue;
    }
    if (c < 0x20 || c === 0x7f) {
      out += caret(c);
      i++;
      continue;
    }
    const cp = text.codePointAt(i) ?? c;
    const size = cp > 0xffff ? 2 : 1;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += "\ufffd"; // a lone surrogate cannot be encoded; show the replacement character
    } else if ((cp >= 0x80 && cp <= 0x9f) || invisibleFormat(cp)) {
      out += uEscape(cp);
    } else {
      out += text.slice(i, i + size);
    }
    i += size;
  }
  return { safe: out, rest: "" };
}

/** One line of untrusted text: newlines visible as `\n`, so nothing can start a line of its own. */
export function sanitizeLine(text: string): string {
  return sanitize(text, { oneLine: true });
}

/**
 * A sanitiser for text that arrives in pieces (streamed model text, command output): a sequence split
 * between two pieces is shown exactly as if it had arrived whole.
 */
export class StreamSanitizer {
  private carry = "";
  constructor(private readonly opts: SanitizeOptions = {}) {}

  push(chunk: string): string {
    const r = sanitizeFrom(this.carry + chunk, this.opts, true);
    this.carry = r.rest;
    return r.safe;
  }

  /** The held-back end of the stream, sanitised (call once the stream is over). */
  end(): string {
    const rest = this.carry;
    this.carry = "";
    return sanitize(rest, this.opts);
  }
}

/**
 * JSON text made inert for a terminal without changing what it means: JSON.stringify already escapes C0
 * controls, but leaves C1 controls (U+009B is CSI), bidi overrides and invisible characters raw. Inside
 * JSON strings (the only place they can occur) their `\uXXXX` escapes parse to the same value.
 */
export function inertJson(json: string): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c < 0x7f) continue;
    const cp = json.codePointAt(i) ?? c;
    const astral = cp > 0xffff;
    if ((cp >= 0x7f && cp <= 0x9f) || invisibleFormat(cp)) {
      out += json.slice(last, i);
      out += astral ? uEscape(c) + uEscape(json.charCodeAt(i + 1)) : uEscape(c);
      last = i + (astral ? 2 : 1);
    }
    if (astral) i++;
  }
  return last === 0 ? json : out + json.slice(last);
}
