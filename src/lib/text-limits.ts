// Bounds on text that workers put in front of the model: nothing a file or a page contains may grow a
// prompt or a tool result without limit, and a cut is always announced so the model knows it saw a part.

/** Where to cut `text` at most at `end`: never between a surrogate pair (a lone half becomes U+FFFD). */
function cutAt(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** `text` cut to at most `max` characters, followed by `note` (on its own line) when something was cut. */
export function clipText(text: string, max: number, note: (total: number) => string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, cutAt(text, max))}\n${note(text.length)}`;
}

/** One line for a listing: single spaces, at most `max` characters, an ellipsis when cut. */
export function clipLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, cutAt(flat, max - 1))}…`;
}
