// Reply lines without decoding and re-parsing what we sent: every hook returns its complete data, so the
// reply to a compact_plan or before_compact request carries the whole history back, and decoding and
// parsing it again costs more than anything the hook did. When the reply's bytes contain, verbatim, the
// bytes of a large message array the host sent (a JavaScript worker writes it back byte for byte), only
// the bytes around it are decoded, the array's place taken by a unique placeholder, and the placeholder
// replaced by the array after parsing.
//
// The result equals JSON.parse of the decoded line: the sent bytes decode to exactly the text the array
// was encoded as (JSON.stringify of it), that text is a complete JSON value, so the placeholder is
// accepted only where it comes back as a whole top-level field of `data`, and a JSON parser reads the
// rest of the line the same way whichever complete value stands there. The sent bytes start with `[` and
// end with `]`, so they begin and end on character boundaries, and the line is valid UTF-8 exactly when
// the decoded parts around them are. Messages are JSON data that is never mutated, so the array parses
// back to the sent one; its messages are shared, the array is new. Anything else (bytes not found, a
// placeholder elsewhere, a parse error, bad UTF-8) is left to the plain path.
import { randomUUID } from "node:crypto";
import { isRecord } from "../lib/is-record.ts";
import type { SentArray } from "./encode-request.ts";

/** Per process and unguessable: a worker cannot produce it, so any occurrence is one we inserted. */
const PLACEHOLDER = `i-sent-array-${randomUUID()}-`;
/** How many false starts (the array's first bytes found elsewhere) to try before parsing plainly. */
const MAX_CANDIDATES = 8;
const HEAD_BYTES = 64;

// As the line decoder reads a line: a BOM at its very start is dropped. One inside it is a character.
const decoder = new TextDecoder("utf-8", { fatal: true });
const inner = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Where `sent` occurs in `line` at or after `from`, found by its first bytes then compared whole; -1 if not. */
function find(line: Buffer, sent: Uint8Array, from: number): number {
  const head = sent.subarray(0, HEAD_BYTES);
  let at = line.indexOf(head, from);
  for (let tries = 0; at >= 0 && tries < MAX_CANDIDATES; tries++) {
    if (at + sent.length <= line.length && Buffer.compare(line.subarray(at, at + sent.length), sent) === 0)
      return at;
    at = line.indexOf(head, at + 1);
  }
  return -1;
}

/**
 * JSON.parse of the reply line `bytes`, skipping the decoding and parsing of message arrays from `sent`
 * that it echoes verbatim; undefined when it echoes none or the shortcut does not apply (then the caller
 * decodes and parses the line plainly, which also reports any error).
 */
export function parseEchoReply(bytes: Uint8Array, sent: readonly SentArray[]): unknown {
  const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: { at: number; s: SentArray }[] = [];
  for (const s of sent) {
    // Echoes do not overlap: each search starts after the ones found, in the order the reply has them.
    const at = find(line, s.bytes, 0);
    if (at < 0) continue;
    if (found.some((f) => at < f.at + f.s.bytes.length && f.at < at + s.bytes.length)) continue;
    found.push({ at, s });
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.at - b.at);
  let text = "";
  let from = 0;
  try {
    found.forEach((f, i) => {
      text += `${(i === 0 ? decoder : inner).decode(line.subarray(from, f.at))}"${PLACEHOLDER}${i}"`;
      from = f.at + f.s.bytes.length;
    });
    text += inner.decode(line.subarray(from));
  } catch {
    return undefined;
  }
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return undefined;
  }
  const data = isRecord(msg) ? msg.data : undefined;
  if (!isRecord(data)) return undefined;
  let restored = 0;
  for (const key of Object.keys(data)) {
    const v = data[key];
    if (typeof v !== "string" || !v.startsWith(PLACEHOLDER)) continue;
    const i = Number(v.slice(PLACEHOLDER.length));
    const f = found[i];
    if (!f || v !== `${PLACEHOLDER}${i}`) return undefined;
    data[key] = [...f.s.value];
    restored++;
  }
  // A placeholder that did not come back as a whole field sits somewhere else: parse the real text.
  return restored === found.length ? msg : undefined;
}
