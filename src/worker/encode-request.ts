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

import { encodeDataWith, isPlain, joinPieces } from "../contract/lib/encode-data.ts";
import { messageJson } from "../contract/lib/message-json.ts";

/** Message arrays at least this long (JSON characters) are reported in `sent`. */
export const ECHO_MIN_CHARS = 64 * 1024;

/** A large message array as sent: its exact JSON text, and a snapshot of the array it encodes. */
export interface SentArray {
  text: string;
  value: readonly unknown[];
}

export { CACHE_MAX_CHARS, cachedMessageChars } from "../contract/lib/message-json.ts";

/** A message's cached text; other elements (holes, class instances, toJSON) are left to JSON.stringify. */
const pieceOf = (m: unknown): string | undefined => (isPlain(m) ? messageJson(m) : undefined);

/**
 * JSON.stringify(data), with message arrays assembled from cached per-message text; the large ones are
 * appended to `sent`.
 */
export function encodeData(data: Record<string, unknown>, sent?: SentArray[]): string {
  return encodeDataWith(data, (_key, list) => {
    const text = joinPieces(list, pieceOf);
    if (sent && text !== undefined && text.length >= ECHO_MIN_CHARS) sent.push({ text, value: [...list] });
    return text;
  });
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
