// A structural scanner for request lines: it finds the message arrays among the top-level fields of
// `data` and splits each into the JSON text of its elements, without parsing anything. Strings are
// jumped with indexOf; only the few characters between strings are looked at one by one.
//
// It proves nothing about validity: the caller parses every piece and the rest of the line, which is
// what makes the split sound (see request-line.ts). It does decide, per element, whether the text is
// canonical — exactly what JSON.stringify writes for the value it parses to — so that text can be sent
// back instead of re-serialising the element: no whitespace, numbers as String(n) writes them, no key
// that starts with a digit (integer-like keys are reordered by the engine), no escape JSON.stringify
// would not write. Duplicate keys are the one thing a scan cannot see cheaply; it counts key tokens so
// the caller can compare with the keys the parsed value has.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;

/** One message array in the line: where its text is and its elements' texts. */
export interface SplitField {
  key: string;
  /** the array's text is line.slice(start, end) */
  start: number;
  end: number;
  pieces: string[];
  /** per piece: its text is what JSON.stringify writes for its value, if its keys are all distinct */
  canonical: boolean[];
  /** per piece: how many object keys its text has */
  keys: number[];
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isNumberChar(c: number): boolean {
  // digits, '+', '-', '.', 'e', 'E'
  return isDigit(c) || c === 0x2b || c === MINUS || c === 0x2e || c === 0x65 || c === 0x45;
}

/** Index just past the string starting at `p` (an opening quote), or -1 when it does not end. */
function stringEnd(s: string, p: number): number {
  let q = s.indexOf('"', p + 1);
  while (q >= 0) {
    let b = q - 1;
    while (s.charCodeAt(b) === BACKSLASH) b--;
    // An even run of backslashes before the quote escapes only itself: the string ends here.
    if ((q - 1 - b) % 2 === 0) return q + 1;
    q = s.indexOf('"', q + 1);
  }
  return -1;
}

/** What one scanned value taught us: canonical so far, and its key tokens. */
interface Tally {
  canonical: boolean;
  keys: number;
}

/**
 * Index just past the value starting at `p`, or -1 when the text is not shaped as the core writes it
 * (whitespace, junk). Brackets are counted, not matched: the caller's parse catches a mismatch.
 */
function valueEnd(s: string, p: number, t: Tally): number {
  let depth = 0;
  do {
    const c = s.charCodeAt(p);
    if (c === QUOTE) {
      const e = stringEnd(s, p);
      if (e < 0) return -1;
      if (s.charCodeAt(e) === COLON) {
        t.keys++;
        if (isDigit(s.charCodeAt(p + 1))) t.canonical = false;
      }
      p = e;
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
      p++;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      p++;
    } else if ((c === COMMA || c === COLON) && depth > 0) p++;
    // true, null, false: the letters are checked by the parse
    else if (c === 0x74 || c === 0x6e) p += 4;
    else if (c === 0x66) p += 5;
    else if (c === MINUS || isDigit(c)) {
      const from = p;
      while (p < s.length && isNumberChar(s.charCodeAt(p))) p++;
      const token = s.slice(from, p);
      if (String(Number(token)) !== token) t.canonical = false;
    } else return -1;
  } while (depth > 0 && p < s.length);
  return depth > 0 ? -1 : p;
}

// What a skipped value's structure does not depend on: inside a container every character but quotes and
// brackets; at the top, a scalar runs to the next comma or closing bracket. Jumped by the regex engine,
// not looked at one by one: the budget request's history summary is thousands of numbers.
const PLAIN_RUN = /[^"[\]{}]+/y;
const SCALAR = /[^,\]}]+/y;

/** Index just past `re`'s match at `p`, or -1 when it matches nothing there. */
function jump(re: RegExp, s: string, p: number): number {
  re.lastIndex = p;
  return re.test(s) ? re.lastIndex : -1;
}

/**
 * Index just past the value starting at `p`, a field the caller does not split, or -1. Only strings and
 * brackets are followed (nothing is checked: the caller's parse of the rest is what proves it).
 */
function skipValue(s: string, p: number): number {
  let depth = 0;
  do {
    const c = s.charCodeAt(p);
    if (c === QUOTE) p = stringEnd(s, p);
    else if (c === LBRACE || c === LBRACKET) {
      depth++;
      p++;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
      p++;
    } else p = jump(depth > 0 ? PLAIN_RUN : SCALAR, s, p);
    if (p < 0) return -1;
  } while (depth > 0 && p < s.length);
  return depth > 0 ? -1 : p;
}

/**
 * Escapes JSON.stringify never writes: `\/`, and `\u` except lowercase for a control character without
 * a short form (it writes `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` and raw characters otherwise; lone
 * surrogates are treated as non-canonical too). Scans forward once over the whole line.
 */
class EscapeCursor {
  private nextU: number;
  private nextSlash: number;
  constructor(
    private readonly s: string,
    from: number,
  ) {
    this.nextU = s.indexOf("\\u", from);
    this.nextSlash = s.indexOf("\\/", from);
  }

  /** True when [from, to) holds no escape JSON.stringify would not write. Calls must move forward. */
  clean(from: number, to: number): boolean {
    let ok = true;
    while (this.nextU >= 0 && this.nextU < to) {
      if (this.nextU >= from && this.escapes(this.nextU) && !this.canonicalU(this.nextU)) ok = false;
      this.nextU = this.s.indexOf("\\u", this.nextU + 1);
    }
    while (this.nextSlash >= 0 && this.nextSlash < to) {
      if (this.nextSlash >= from && this.escapes(this.nextSlash)) ok = false;
      this.nextSlash = this.s.indexOf("\\/", this.nextSlash + 1);
    }
    return ok;
  }

  /** The backslash at `i` starts an escape (it is not itself escaped by an odd run before it). */
  private escapes(i: number): boolean {
    let b = i - 1;
    while (this.s.charCodeAt(b) === BACKSLASH) b--;
    return (i - 1 - b) % 2 === 0;
  }

  private canonicalU(i: number): boolean {
    const hex = this.s.slice(i + 2, i + 6);
    if (!/^[0-9a-f]{4}$/.test(hex)) return false;
    const code = Number.parseInt(hex, 16);
    // \b \t \n \f \r have short forms; everything else below 0x20 is written as \u00xx.
    return code < 0x20 && code !== 8 && code !== 9 && code !== 10 && code !== 12 && code !== 13;
  }
}

/** Split the array at `p` (its `[`) into element texts; undefined when it is not shaped as expected. */
function splitArray(s: string, key: string, p: number, esc: EscapeCursor): SplitField | undefined {
  const field: SplitField = { key, start: p, end: -1, pieces: [], canonical: [], keys: [] };
  p++;
  if (s.charCodeAt(p) === RBRACKET) {
    field.end = p + 1;
    return field;
  }
  for (;;) {
    const t: Tally = { canonical: true, keys: 0 };
    const e = valueEnd(s, p, t);
    if (e < 0) return undefined;
    field.pieces.push(s.slice(p, e));
    field.canonical.push(t.canonical && esc.clean(p, e));
    field.keys.push(t.keys);
    const c = s.charCodeAt(e);
    p = e + 1;
    if (c === RBRACKET) break;
    if (c !== COMMA) return undefined;
  }
  field.end = p;
  return field;
}

/** Index just past the key string at `p` with the key's raw text, or undefined. */
function readKey(s: string, p: number): { key: string; next: number } | undefined {
  if (s.charCodeAt(p) !== QUOTE) return undefined;
  const e = stringEnd(s, p);
  if (e < 0 || s.charCodeAt(e) !== COLON) return undefined;
  return { key: s.slice(p + 1, e - 1), next: e + 1 };
}

/**
 * The message arrays among the top-level fields of `data` in a request line, named by `fields`, split
 * into element texts; undefined when the line is not shaped as expected (the caller parses it plainly).
 */
export function splitRequestLine(line: string, fields: ReadonlySet<string>): SplitField[] | undefined {
  const out: SplitField[] = [];
  let esc: EscapeCursor | undefined;
  if (line.charCodeAt(0) !== LBRACE) return undefined;
  let p = 1;
  for (;;) {
    const top = readKey(line, p);
    if (!top) return undefined;
    p = top.next;
    if (top.key === "data" && line.charCodeAt(p) === LBRACE) {
      p++;
      while (line.charCodeAt(p) !== RBRACE) {
        const member = readKey(line, p);
        if (!member) return undefined;
        p = member.next;
        if (fields.has(member.key) && line.charCodeAt(p) === LBRACKET) {
          esc ??= new EscapeCursor(line, p);
          const field = splitArray(line, member.key, p, esc);
          if (!field) return undefined;
          out.push(field);
          p = field.end;
        } else p = skipValue(line, p);
        if (p < 0) return undefined;
        if (line.charCodeAt(p) === COMMA) p++;
        else if (line.charCodeAt(p) !== RBRACE) return undefined;
      }
      p++;
    } else p = skipValue(line, p);
    if (p < 0) return undefined;
    const c = line.charCodeAt(p);
    if (c === RBRACE) return p + 1 === line.length ? out : undefined;
    if (c !== COMMA) return undefined;
    p++;
  }
}

/** The quote at `i` is escaped (an odd run of backslashes before it): it stands inside a string. */
function escapedQuote(s: string, i: number): boolean {
  let b = i - 1;
  while (s.charCodeAt(b) === BACKSLASH) b--;
  return (i - 1 - b) % 2 === 1;
}

/**
 * The same split found by the fields' keys instead of by walking the line: each unescaped `"key":[` is
 * a member named `key` holding an array (inside a string every quote is escaped), split where it is
 * unless it lies in an array split already. Whether each one is a top-level field of `data` is not
 * known here: the caller's parse checks that, and walks the line (splitRequestLine) when it is not.
 * The line's other fields are never looked at, however long they are.
 */
export function splitByKeys(line: string, fields: ReadonlySet<string>): SplitField[] | undefined {
  const found: { key: string; at: number }[] = [];
  for (const key of fields) {
    const needle = `"${key}":[`;
    for (let at = line.indexOf(needle); at >= 0; at = line.indexOf(needle, at + 1))
      if (!escapedQuote(line, at)) found.push({ key, at });
  }
  found.sort((a, b) => a.at - b.at);
  const out: SplitField[] = [];
  let esc: EscapeCursor | undefined;
  let end = 0;
  for (const { key, at } of found) {
    if (at < end) continue;
    const p = at + key.length + 3;
    esc ??= new EscapeCursor(line, p);
    const field = splitArray(line, key, p, esc);
    if (!field) return undefined;
    out.push(field);
    end = field.end;
  }
  return out;
}
