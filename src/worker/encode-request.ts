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
// Large message arrays are also reported back to the caller (`sent`), text and array, so the reply that
// echoes them (every hook returns its complete data) can be parsed without re-parsing them
// (decode-reply.ts).

import { messageJson } from "../contract/lib/message-json.ts";

/** Message arrays at least this long (JSON characters) are reported in `sent`. */
export const ECHO_MIN_CHARS = 64 * 1024;

/** A large message array as sent: its exact JSON text, and a snapshot of the array it encodes. */
export interface SentArray {
  text: string;
  value: readonly unknown[];
}

/** Top-level data fields that hold message arrays. */
const MESSAGE_FIELDS = new Set(["history", "messages", "candidate"]);

export { CACHE_MAX_CHARS, cachedMessageChars } from "../contract/lib/message-json.ts";

function hasToJSON(v: unknown): boolean {
  return typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function";
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || hasToJSON(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The JSON text of a message array from cached pieces, or undefined when an element is not a plain object. */
function encodeMessages(list: readonly unknown[]): string | undefined {
  const parts = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) {
    // A hole reads as undefined and is not plain: JSON.stringify writes it as null, so leave it to it.
    const m = list[i];
    if (!isPlain(m)) return undefined;
    parts[i] = messageJson(m);
  }
  return `[${parts.join(",")}]`;
}

/**
 * JSON.stringify(data), with message arrays assembled from cached per-message text; the large ones are
 * appended to `sent`.
 */
export function encodeData(data: Record<string, unknown>, sent?: SentArray[]): string {
  if (!isPlain(data)) return JSON.stringify(data);
  let out = "";
  for (const key of Object.keys(data)) {
    const value = data[key];
    // JSON.stringify passes the member's key to toJSON; keep that case (never seen in hook data) exact.
    if (hasToJSON(value)) return JSON.stringify(data);
    let text: string | undefined;
    if (MESSAGE_FIELDS.has(key) && Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype) {
      text = encodeMessages(value);
      if (sent && text !== undefined && text.length >= ECHO_MIN_CHARS) sent.push({ text, value: [...value] });
    }
    // undefined, functions and symbols are skipped as object members, exactly as JSON.stringify does.
    text ??= JSON.stringify(value) as string | undefined;
    if (text === undefined) continue;
    out += `${out === "" ? "" : ","}${JSON.stringify(key)}:${text}`;
  }
  return `{${out}}`;
}

export interface RequestFields {
  id: number;
  event: string;
  workspace: string;
  data: Record<string, unknown>;
  /** only when one process serves several built-in modules */
  module?: string;
}

/**
 * One request line (without the newline): the same text as JSON.stringify of the request object, in
 * the protocol's field order. Large message arrays in the data are appended to `sent`.
 */
export function encodeRequest(req: RequestFields, sent?: SentArray[]): string {
  const { id, event, workspace, data, module } = req;
  const tail = module === undefined ? "" : `,"module":${JSON.stringify(module)}`;
  return `{"id":${id},"event":${JSON.stringify(event)},"workspace":${JSON.stringify(workspace)},"data":${encodeData(data, sent)}${tail}}`;
}
