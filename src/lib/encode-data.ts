// JSON.stringify of hook data with its message arrays assembled from ready-made pieces: the core sends
// the history on almost every request and a worker hands it back in every reply, and re-serialising
// megabytes of messages that did not change costs more than the hook itself. Both sides share this; each
// brings its own source of pieces (the core: its per-message cache; a worker: the text the message
// arrived as). The output is exactly what JSON.stringify gives for the same value; anything unusual (a
// non-plain object, a toJSON method, an array subclass) is left to JSON.stringify.

/**
 * Top-level data fields that hold message arrays, and `tools` (the budget hook's tool declarations: the
 * same objects request after request, tens of KB with an MCP server's tools, never mutated either).
 */
export const MESSAGE_FIELDS: ReadonlySet<string> = new Set(["history", "messages", "candidate", "tools"]);

export function hasToJSON(v: unknown): boolean {
  return typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function";
}

/** A plain object (Object.prototype or null prototype) without toJSON: its JSON text is its own fields. */
export function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || hasToJSON(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A plain array (not a subclass, no toJSON): JSON.stringify writes it element by element. */
export function isPlainArray(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && !hasToJSON(v);
}

/**
 * The JSON text of `list` from per-element pieces, or undefined when some element has no piece (then the
 * caller stringifies the whole array). `pieceOf` must return exactly JSON.stringify(element) or undefined.
 */
export function joinPieces(
  list: readonly unknown[],
  pieceOf: (element: unknown) => string | undefined,
): string | undefined {
  const parts = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) {
    // A hole reads as undefined: pieceOf has none for it, and JSON.stringify (writing null) takes over.
    const piece = pieceOf(list[i]);
    if (piece === undefined) return undefined;
    parts[i] = piece;
  }
  return `[${parts.join(",")}]`;
}

/** A piece of JSON output: text, or the exact UTF-8 bytes of some text (written as they are). */
export type Piece = string | Uint8Array;

/**
 * A value whose JSON is kept ready as pieces (the history summary, whose columns only grow). A byte
 * encoder writes the pieces as they are; toJSON gives the value itself, so JSON.stringify of it writes the
 * very same text. The pieces' bytes must not change once handed out.
 */
export class EncodedJson<V = unknown> {
  constructor(
    readonly pieces: () => Piece[],
    private readonly value: () => V,
  ) {}

  toJSON(): V {
    return this.value();
  }
}

/**
 * JSON.stringify(data) as pieces, with the message fields' arrays encoded by `messages`: their exact
 * JSON text, or something standing for it (bytes, element texts) kept as a piece of its own, or
 * undefined to leave the array to JSON.stringify. An EncodedJson member gives its own pieces. `strings`
 * may give a string member's JSON as its exact UTF-8 bytes (kept by the caller), or undefined.
 */
export function encodeDataPieces<T extends object>(
  data: Record<string, unknown>,
  messages: (key: string, list: readonly unknown[]) => string | T | undefined,
  strings?: (value: string) => Uint8Array | undefined,
): (Piece | T)[] {
  if (!isPlain(data)) return [JSON.stringify(data)];
  const out: (Piece | T)[] = [];
  let text = "{";
  let first = true;
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (value instanceof EncodedJson) {
      out.push(`${text}${first ? "" : ","}${JSON.stringify(key)}:`, ...value.pieces());
      text = "";
      first = false;
      continue;
    }
    // JSON.stringify passes the member's key to toJSON; keep that case (never seen in hook data) exact.
    if (hasToJSON(value)) return [JSON.stringify(data)];
    let piece: Piece | T | undefined;
    if (MESSAGE_FIELDS.has(key) && isPlainArray(value)) piece = messages(key, value);
    else if (strings && typeof value === "string") piece = strings(value);
    // undefined, functions and symbols are skipped as object members, exactly as JSON.stringify does.
    piece ??= JSON.stringify(value) as string | undefined;
    if (piece === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (typeof piece === "string") text += piece;
    else {
      out.push(text, piece);
      text = "";
    }
  }
  out.push(`${text}}`);
  return out;
}

/** JSON.stringify(data), with the message fields' arrays encoded by `messages` (text, or undefined). */
export function encodeDataWith(
  data: Record<string, unknown>,
  messages: (key: string, list: readonly unknown[]) => string | undefined,
): string {
  // Text only: an EncodedJson member's byte pieces have no place here; its toJSON gives the same text.
  if (Object.values(data).some((v) => v instanceof EncodedJson)) return JSON.stringify(data);
  return encodeDataPieces<never>(data, messages).join("");
}
