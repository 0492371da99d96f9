// Bounds on text that workers put in front of the model: nothing a file or a page contains may grow a
// prompt or a tool result without limit, and a cut is always announced so the model knows it saw a part.

/** `text` cut to at most `max` characters, followed by `note` (on its own line) when something was cut. */
export function clipText(text: string, max: number, note: (total: number) => string): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: a lone half would become U+FFFD on the wire.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}\n${note(text.length)}`;
}

/** One line for a listing: single spaces, at most `max` characters, an ellipsis when cut. */
export function clipLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  let end = max - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}
