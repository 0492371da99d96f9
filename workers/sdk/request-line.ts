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
import { encodeDataWith, isPlain, joinPieces, MESSAGE_FIELDS } from "../../src/contract/lib/encode-data.ts";
import { type SplitField, splitRequestLine } from "./json-split.ts";

/** Lines shorter than this are parsed plainly: splitting only pays off on big histories. */
export const SPLIT_MIN_CHARS = 64 * 1024;

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

/** Freeze `v` and everything under it; returns how many object keys it has in all. */
function deepFreeze(v: unknown): number {
  if (typeof v !== "object" || v === null) return 0;
  let keys = 0;
  if (Array.isArray(v)) for (const x of v) keys += deepFreeze(x);
  else {
    const own = Object.keys(v);
    keys += own.length;
    for (const k of own) keys += deepFreeze((v as Record<string, unknown>)[k]);
  }
  Object.freeze(v);
  return keys;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The elements of `f`, parsed and frozen, their canonical texts remembered; throws on a bad piece. */
function parseElements(f: SplitField): unknown[] {
  const out = new Array<unknown>(f.pieces.length);
  for (let i = 0; i < f.pieces.length; i++) {
    const text = f.pieces[i] as string;
    const value: unknown = JSON.parse(text);
    const keys = deepFreeze(value);
    if (typeof value === "object" && value !== null && f.canonical[i] && keys === f.keys[i])
      received.set(value, text);
    out[i] = value;
  }
  return out;
}

/** The split parse, or undefined when the line is not one it can prove equal to JSON.parse(line). */
function parseSplit(line: string): unknown {
  const fields = splitRequestLine(line, MESSAGE_FIELDS);
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
  return msg;
}

/** JSON.parse(line), with the message arrays of `data` frozen and their element texts remembered. */
export function parseRequestLine(line: string): unknown {
  const msg = (line.length >= SPLIT_MIN_CHARS ? parseSplit(line) : undefined) ?? JSON.parse(line);
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

/** The reply line for `data` (with the newline): exactly JSON.stringify({ id, data }) plus "\n". */
export function encodeReplyLine(id: number, data: Record<string, unknown>): string {
  // A toJSON on data itself would be called with the key "data": leave that to JSON.stringify.
  if (!isPlain(data)) return `${JSON.stringify({ id, data })}\n`;
  const body = encodeDataWith(data, (_key, list) => joinPieces(list, pieceOf));
  return `{"id":${JSON.stringify(id)},"data":${body}}\n`;
}

/** The text a received message arrived as, when it will be written back from it (tests). */
export function receivedText(m: object): string | undefined {
  return received.get(m);
}
