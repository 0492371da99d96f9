// Reply lines without re-parsing what we sent: every hook returns its complete data, so the reply to a
// budget or compact_plan request carries the whole history back, and parsing it again costs more than
// anything the hook did. When the reply contains, verbatim, the JSON text of a large message array the
// host sent (a JavaScript worker re-serialises it byte for byte), that text is swapped for a unique
// placeholder before parsing and the placeholder for the array afterwards.
//
// The result equals JSON.parse(line): the placeholder is a complete JSON value only where the text was a
// complete value, so it is accepted only when it comes back as a whole top-level field of `data`; the
// text parses to exactly the array it was made from (messages are JSON data, never mutated). Anything
// else (text not found, placeholder elsewhere, a parse error) is left to JSON.parse(line). The messages
// in the result are the sent objects, shared; the array is a new one.
import { randomUUID } from "node:crypto";
import type { SentArray } from "./encode-request.ts";

/** Per process and unguessable: a worker cannot produce it, so any occurrence is one we inserted. */
const PLACEHOLDER = `\u0000i-sent-array-${randomUUID()}-`;
/** How many false starts (the array's first characters found elsewhere) to try before parsing plainly. */
const MAX_CANDIDATES = 8;
const HEAD_CHARS = 64;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Where `text` occurs in `line`, found by its first characters then compared whole; -1 if not. */
function find(line: string, text: string): number {
  const head = text.slice(0, HEAD_CHARS);
  let at = line.indexOf(head);
  for (let tries = 0; at >= 0 && tries < MAX_CANDIDATES; tries++) {
    if (line.startsWith(text, at)) return at;
    at = line.indexOf(head, at + 1);
  }
  return -1;
}

/** JSON.parse(line), skipping the parse of message arrays from `sent` that the reply echoes verbatim. */
export function parseReplyLine(line: string, sent: readonly SentArray[]): unknown {
  let text = line;
  const swapped: SentArray[] = [];
  for (const s of sent) {
    const at = find(text, s.text);
    if (at < 0) continue;
    const token = JSON.stringify(`${PLACEHOLDER}${swapped.length}`);
    text = `${text.slice(0, at)}${token}${text.slice(at + s.text.length)}`;
    swapped.push(s);
  }
  if (swapped.length === 0) return JSON.parse(line);
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return JSON.parse(line);
  }
  const data = isRecord(msg) ? msg.data : undefined;
  if (!isRecord(data)) return JSON.parse(line);
  let restored = 0;
  for (const key of Object.keys(data)) {
    const v = data[key];
    if (typeof v !== "string" || !v.startsWith(PLACEHOLDER)) continue;
    const s = swapped[Number(v.slice(PLACEHOLDER.length))];
    if (!s) return JSON.parse(line);
    data[key] = [...s.value];
    restored++;
  }
  // A placeholder that did not come back as a whole field sits somewhere else: parse the real text.
  return restored === swapped.length ? msg : JSON.parse(line);
}
