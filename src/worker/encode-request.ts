// Request lines without re-serialising megabytes: hook data carries the session's history (budget,
// compact_plan, before_request, before_compact, before_compact_commit) on almost every request, and the
// messages in it never change once they are in the history. Each message's JSON text is cached the
// first time it is sent, and a request is assembled from cached pieces. The output is exactly what
// JSON.stringify gives for the same request; anything unusual (a non-plain element, a toJSON method, a
// hole) is left to JSON.stringify.
//
// Correctness rests on one rule the whole core follows: a message object is never mutated after it
// enters a history (changes make a new object). A mutated message would be sent as it was when cached.
//
// The line goes out as bytes, each message's text encoded straight into one buffer (no joined copy of
// the history first). Large message arrays are reported back to the caller (`sent`), their bytes in
// that buffer and the array, so the reply that echoes them (every hook returns its complete data) can be
// recognised byte for byte and parsed without decoding or parsing them again (decode-reply.ts).

import { encodeDataPieces, encodeDataWith, isPlain, joinPieces } from "../lib/encode-data.ts";
import { messageJson } from "../lib/message-json.ts";

/**
 * Message arrays at least this long (JSON bytes) are reported in `sent`. Low enough for the tool
 * declarations the budget request carries on every turn (~8 KB with the standard profile): parsing their
 * echo again, and comparing it deep with what was sent, was per-turn work and per-turn garbage.
 */
export const ECHO_MIN_BYTES = 2 * 1024;

/** A large message array as sent: its exact JSON bytes (in the request line), and a snapshot of it. */
export interface SentArray {
  bytes: Uint8Array;
  value: readonly unknown[];
}

export { CACHE_MAX_CHARS, cachedMessageChars } from "../lib/message-json.ts";

/** A message's cached text; other elements (holes, class instances, toJSON) are left to JSON.stringify. */
const pieceOf = (m: unknown): string | undefined => (isPlain(m) ? messageJson(m) : undefined);

/** JSON.stringify(data), with message arrays assembled from cached per-message text. */
export function encodeData(data: Record<string, unknown>): string {
  return encodeDataWith(data, (_key, list) => joinPieces(list, pieceOf));
}

/** A message array as its elements' texts, or undefined when an element has no cached text. */
class Texts {
  constructor(
    readonly list: readonly unknown[],
    readonly texts: string[],
  ) {}
  static of(list: readonly unknown[]): Texts | undefined {
    const texts = new Array<string>(list.length);
    for (let i = 0; i < list.length; i++) {
      const t = pieceOf(list[i]);
      if (t === undefined) return undefined;
      texts[i] = t;
    }
    return new Texts(list, texts);
  }
  /** UTF-8 length of `[t0,t1,…]` */
  byteLength(): number {
    let n = 2 + Math.max(0, this.texts.length - 1);
    for (const t of this.texts) n += Buffer.byteLength(t);
    return n;
  }
}

/** A message array's exact JSON bytes, kept from an earlier request of the very same list. */
class ListBytes {
  constructor(
    readonly list: readonly unknown[],
    readonly bytes: Uint8Array,
  ) {}
}

/**
 * The budget request carries the tool declarations on every turn (~9 KB with the standard profile, some
 * of it not Latin-1, so writing their texts transcoded them each time): the same list, the same objects.
 * Their bytes are kept per list and used while it holds the very same elements in the same order.
 */
const keptLists = new WeakMap<readonly unknown[], { elements: unknown[]; bytes: Uint8Array }>();

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function toolListBytes(list: readonly unknown[]): ListBytes | Texts | undefined {
  const kept = keptLists.get(list);
  if (kept && sameElements(kept.elements, list)) return new ListBytes(list, kept.bytes);
  const texts = Texts.of(list);
  if (!texts) return undefined;
  const bytes = Buffer.from(`[${texts.texts.join(",")}]`, "utf8");
  keptLists.set(list, { elements: [...list], bytes });
  return new ListBytes(list, bytes);
}

/** Strings at least this long are kept encoded: the system prompt goes to the budget hook every turn. */
const KEEP_STRING_CHARS = 1024;
/** How many such strings are kept; past it the store starts anew (a prompt rarely changes). */
const KEEP_STRINGS = 8;
const keptStrings = new Map<string, Uint8Array>();

function stringBytes(value: string): Uint8Array | undefined {
  if (value.length < KEEP_STRING_CHARS) return undefined;
  let bytes = keptStrings.get(value);
  if (bytes === undefined) {
    if (keptStrings.size >= KEEP_STRINGS) keptStrings.clear();
    bytes = Buffer.from(JSON.stringify(value), "utf8");
    keptStrings.set(value, bytes);
  }
  return bytes;
}

export interface RequestFields {
  id: number;
  event: string;
  workspace: string;
  data: Record<string, unknown>;
  /** only when one process serves several built-in modules */
  module?: string;
}

function head(req: RequestFields): string {
  return `{"id":${req.id},"event":${JSON.stringify(req.event)},"workspace":${JSON.stringify(req.workspace)},"data":`;
}

function tail(req: RequestFields): string {
  return `${req.module === undefined ? "" : `,"module":${JSON.stringify(req.module)}`}}`;
}

/**
 * One request line (without the newline): the same text as JSON.stringify of the request object, in
 * the protocol's field order.
 */
export function encodeRequest(req: RequestFields): string {
  return `${head(req)}${encodeData(req.data)}${tail(req)}`;
}

/**
 * The request line as UTF-8 bytes, newline included: exactly the bytes of encodeRequest(req) + "\n".
 * Large message arrays in the data are appended to `sent`.
 */
export function encodeRequestBytes(req: RequestFields, sent?: SentArray[]): Uint8Array {
  const body = encodeDataPieces<Texts | ListBytes>(
    req.data,
    (key, list) => (key === "tools" ? toolListBytes(list) : Texts.of(list)),
    stringBytes,
  );
  const pieces = [head(req), ...body, tail(req)];
  let total = 1;
  for (const p of pieces)
    total +=
      typeof p === "string"
        ? Buffer.byteLength(p)
        : p instanceof Uint8Array
          ? p.length
          : p instanceof ListBytes
            ? p.bytes.length
            : p.byteLength();
  const buf = Buffer.allocUnsafe(total);
  let at = 0;
  for (const p of pieces) {
    if (typeof p === "string") {
      at += buf.write(p, at);
      continue;
    }
    if (p instanceof Uint8Array) {
      buf.set(p, at);
      at += p.length;
      continue;
    }
    if (p instanceof ListBytes) {
      buf.set(p.bytes, at);
      if (sent && p.bytes.length >= ECHO_MIN_BYTES)
        sent.push({ bytes: buf.subarray(at, at + p.bytes.length), value: [...p.list] });
      at += p.bytes.length;
      continue;
    }
    const start = at;
    buf[at++] = 0x5b; // [
    p.texts.forEach((t, i) => {
      if (i > 0) buf[at++] = 0x2c; // ,
      at += buf.write(t, at);
    });
    buf[at++] = 0x5d; // ]
    if (sent && at - start >= ECHO_MIN_BYTES)
      sent.push({ bytes: buf.subarray(start, at), value: [...p.list] });
  }
  buf[at] = 0x0a;
  return buf;
}
