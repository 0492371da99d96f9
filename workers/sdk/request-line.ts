// Request lines in, reply lines out, without re-serialising the history. Every hook returns its complete
// data, so a reply to compact_plan or before_compact carries back the megabytes of messages it was sent;
// JSON.stringify of those costs more than the handler. So the messages of a request are parsed one by
// one from their own text, and a reply that hands back those very message objects is written from that
// text again.
//
// Why the result equals JSON.parse(line): the line is split into element texts and the rest (each array
// replaced by a unique placeholder string). Every element text must parse as one complete value, and the
// rest must parse with each placeholder as the whole value of its field in `data`; a JSON parser's state
// at the array depends only on the text before it, so the line parses to the rest with each placeholder
// replaced by the array of parsed elements. Anything else falls back to JSON.parse(line).
//
// Why the reply equals JSON.stringify(reply): an element's text is reused only when it is canonical
// (json-split.ts) and its value has as many keys as its text (no duplicates), and the message objects
// are deep-frozen, so they still are what the text says when the reply is written. The rule for
// handlers: received messages are read-only; to change one, make a new object ({ ...m, content }). A
// handler that assigns to one fails with a TypeError, which becomes an error reply, instead of the
// change being silently lost.
import { randomUUID } from "node:crypto";
import {
  encodeDataPieces,
  isPlain,
  joinPieces,
  MESSAGE_FIELDS,
  type Piece,
} from "../../src/lib/encode-data.ts";
import { isRecord } from "../../src/lib/is-record.ts";
import { type SplitField, splitByKeys, splitRequestLine } from "./json-split.ts";

/** Lines shorter than this are parsed plainly: splitting only pays off on big histories. */
export const SPLIT_MIN_CHARS = 64 * 1024;
/**
 * A line with tool declarations (the budget hook's `tools`) is split from this size on: they come again
 * unchanged every request, so their values are reused and the reply writes them from their text.
 */
export const SPLIT_TOOLS_MIN_CHARS = 8 * 1024;

/** Per process and unguessable: no request can contain it, so it stands only where we put it. */
const PLACEHOLDER = `i-received-array-${randomUUID()}-`;

/** The exact JSON text of message objects received in requests, for the replies that hand them back. */
const received = new WeakMap<object, string>();

/** The message arrays of `data`, frozen element by element (they are the handler's, read-only). */
function freezeMessages(data: unknown): void {
  if (!isPlain(data)) return;
  for (const key of MESSAGE_FIELDS) {
    const list = data[key];
    // Elements of a split parse are frozen already (and hold no unfrozen objects): skip them.
    if (Array.isArray(list)) for (const m of list) if (!Object.isFrozen(m)) deepFreeze(m);
  }
}

/**
 * Freeze `v` and everything under it; returns how many object keys it has in all. Iterative: a value
 * nested deeper than the call stack (JSON.parse accepts it) must not throw here.
 */
function deepFreeze(v: unknown): number {
  let keys = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null) continue;
    if (Array.isArray(x)) for (const y of x) stack.push(y);
    else {
      const own = Object.keys(x);
      keys += own.length;
      for (const k of own) stack.push((x as Record<string, unknown>)[k]);
    }
    Object.freeze(x);
  }
  return keys;
}

/**
 * The message texts and values of the last large array received. The next request often repeats them:
 * before_compact carries history[1..cut] right after compact_plan carried the history, and a module that
 * gets the full history before every request sees it again with a few messages added. An element whose
 * text equals the one at the same place then is that value again (equal text, same value, and it is
 * frozen), found by comparing strings instead of parsing them.
 */
let recent: { pieces: string[]; values: unknown[] } | undefined;
/** The same for `tools`, the budget hook's declarations: the very same texts request after request. */
let lastTools: { pieces: string[]; values: unknown[] } | undefined;
/** Where to look for the new array's first element among the last one's: offset 0 or 1 in practice. */
const ALIGN_TRIES = 4;

/** Where `pieces` starts among the last array's pieces, or -1. */
function alignment(last: { pieces: string[] } | undefined, pieces: readonly string[]): number {
  if (!last || pieces.length === 0) return -1;
  for (let j = 0; j < Math.min(last.pieces.length, ALIGN_TRIES); j++)
    if (last.pieces[j] === pieces[0]) return j;
  return -1;
}

/** The elements of `f`, parsed and frozen, their canonical texts remembered; throws on a bad piece. */
function parseElements(f: SplitField): unknown[] {
  const out = new Array<unknown>(f.pieces.length);
  const last = f.key === "tools" ? lastTools : recent;
  const offset = alignment(last, f.pieces);
  for (let i = 0; i < f.pieces.length; i++) {
    const text = f.pieces[i] as string;
    if (offset >= 0 && last && last.pieces[offset + i] === text) {
      out[i] = last.values[offset + i];
      continue;
    }
    const value: unknown = JSON.parse(text);
    const keys = deepFreeze(value);
    if (typeof value === "object" && value !== null && f.canonical[i] && keys === f.keys[i])
      received.set(value, text);
    out[i] = value;
  }
  return out;
}

/**
 * The message arrays of one request as received: a reply that hands one back whole (the same array,
 * the same elements) is written from the array's text, or straight from the request's bytes.
 */
export class ReceivedArrays {
  // Made on the first add: most requests are small and have none.
  private arrays:
    | Map<readonly unknown[], { items: readonly unknown[]; text: string; bytes: Uint8Array | undefined }>
    | undefined;

  add(list: readonly unknown[], text: string, bytes: Uint8Array | undefined): void {
    this.arrays ??= new Map();
    this.arrays.set(list, { items: [...list], text, bytes });
  }

  /** The received text (or bytes, when asked and known) of `list` if it is a received array unchanged. */
  whole(list: readonly unknown[], asBytes: boolean): Piece | undefined {
    const r = this.arrays?.get(list);
    if (!r || r.items.length !== list.length) return undefined;
    for (let i = 0; i < list.length; i++) if (list[i] !== r.items[i]) return undefined;
    // Every element was remembered by its text (all canonical), or the text is not what JSON.stringify writes.
    for (const m of r.items)
      if (typeof m !== "object" || m === null || !received.has(m) || !isPlain(m)) return undefined;
    return asBytes && r.bytes ? r.bytes : r.text;
  }
}

/** Where line.slice(start, end) lies in the line's UTF-8 bytes. */
function byteRange(line: string, bytes: Uint8Array, start: number, end: number): Uint8Array {
  // Same length: every character is one byte (ASCII), so the offsets are the same.
  if (bytes.length === line.length) return bytes.subarray(start, end);
  const from = Buffer.byteLength(line.slice(0, start));
  return bytes.subarray(from, bytes.length - Buffer.byteLength(line.slice(end)));
}

/**
 * The split parse, or undefined when the line is not one it can prove equal to JSON.parse(line). The
 * arrays are found by their keys first; when one of those is not a top-level field of `data` (a nested
 * member of the same name) or the line does not parse so, by walking the line.
 */
function parseSplit(line: string, bytes: Uint8Array | undefined, echo: ReceivedArrays | undefined): unknown {
  const byKeys = splitByKeys(line, MESSAGE_FIELDS);
  // No such key anywhere: the walk would find none either.
  if (byKeys?.length === 0) return undefined;
  return (
    (byKeys && parseFields(line, bytes, echo, byKeys)) ??
    parseFields(line, bytes, echo, splitRequestLine(line, MESSAGE_FIELDS))
  );
}

function parseFields(
  line: string,
  bytes: Uint8Array | undefined,
  echo: ReceivedArrays | undefined,
  fields: SplitField[] | undefined,
): unknown {
  if (!fields || fields.length === 0) return undefined;
  let rest = "";
  let at = 0;
  fields.forEach((f, i) => {
    rest += `${line.slice(at, f.start)}"${PLACEHOLDER}${i}"`;
    at = f.end;
  });
  rest += line.slice(at);
  let msg: unknown;
  let elements: unknown[][];
  try {
    msg = JSON.parse(rest);
    elements = fields.map(parseElements);
  } catch {
    return undefined;
  }
  const data = isRecord(msg) ? msg.data : undefined;
  if (!isRecord(data)) return undefined;
  for (let i = 0; i < fields.length; i++) {
    const key = (fields[i] as SplitField).key;
    if (data[key] !== `${PLACEHOLDER}${i}`) return undefined;
    data[key] = elements[i];
  }
  // The longest message array is the one most likely repeated next; the tools come again as they are.
  let longest = -1;
  for (const [i, f] of fields.entries()) {
    if (f.key === "tools") lastTools = { pieces: f.pieces, values: elements[i] as unknown[] };
    else if (longest < 0 || f.pieces.length > (fields[longest] as SplitField).pieces.length) longest = i;
  }
  if (longest >= 0)
    recent = { pieces: (fields[longest] as SplitField).pieces, values: elements[longest] as unknown[] };
  if (echo)
    for (const [i, f] of fields.entries())
      echo.add(
        elements[i] as unknown[],
        line.slice(f.start, f.end),
        bytes && byteRange(line, bytes, f.start, f.end),
      );
  return msg;
}

/**
 * JSON.parse(line), with the message arrays of `data` frozen and their element texts remembered; the
 * arrays themselves go to `echo` (with their bytes, when `bytes` is the line's UTF-8 and stays valid
 * until the reply is written).
 */
export function parseRequestLine(line: string, bytes?: Uint8Array, echo?: ReceivedArrays): unknown {
  const big =
    line.length >= SPLIT_MIN_CHARS || (line.length >= SPLIT_TOOLS_MIN_CHARS && line.includes('"tools":['));
  const split = big ? parseSplit(line, bytes, echo) : undefined;
  const msg = split ?? JSON.parse(line);
  // Small or unusual requests get the same rule: received messages are read-only either way.
  if (isRecord(msg)) freezeMessages(msg.data);
  return msg;
}

/** A received message's own text (it cannot have changed: it is frozen); other elements get stringified. */
function pieceOf(m: unknown): string | undefined {
  if (typeof m !== "object" || m === null) return undefined;
  const text = received.get(m);
  if (text !== undefined) return isPlain(m) ? text : undefined;
  return isPlain(m) ? JSON.stringify(m) : undefined;
}

/** Whether a message field of `data` holds a message received as text. */
function holdsReceived(data: Record<string, unknown>): boolean {
  for (const key of MESSAGE_FIELDS) {
    const list = data[key];
    if (!Array.isArray(list)) continue;
    for (const m of list) if (typeof m === "object" && m !== null && received.has(m)) return true;
  }
  return false;
}

/**
 * The reply for `data` as pieces (the newline included): exactly JSON.stringify({ id, data }) plus
 * "\n" when joined, byte pieces standing for their text. Arrays handed back whole come from `echo`.
 */
export function encodeReplyPieces(
  id: number,
  data: Record<string, unknown>,
  echo?: ReceivedArrays,
  asBytes = false,
): Piece[] {
  // A toJSON on data itself would be called with the key "data": leave that to JSON.stringify. So is a
  // reply with no received message in it (small requests): one native call is the fastest there.
  if (!isPlain(data) || !holdsReceived(data)) return [`${JSON.stringify({ id, data })}\n`];
  const body = encodeDataPieces(
    data,
    (_key, list) => echo?.whole(list, asBytes) ?? joinPieces(list, pieceOf),
  );
  return [`{"id":${JSON.stringify(id)},"data":`, ...body, "}\n"];
}

/** The reply line for `data` (with the newline): exactly JSON.stringify({ id, data }) plus "\n". */
export function encodeReplyLine(id: number, data: Record<string, unknown>, echo?: ReceivedArrays): string {
  return encodeReplyPieces(id, data, echo).join("");
}

/** The text a received message arrived as, when it will be written back from it (tests). */
export function receivedText(m: object): string | undefined {
  return received.get(m);
}
