// Text shortened for a one-line display (a session title, a summary's preview): cut at the last word
// boundary that fits, with an ellipsis when anything was cut.

/** `text` (trimmed) in at most `max` characters, ending with "…" when cut. */
export function cutAtWord(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const room = t.slice(0, max - 1);
  const space = room.lastIndexOf(" ");
  // A first word longer than half the room is cut inside it rather than leaving almost nothing.
  const cut = space >= max / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,.;:!?-]+$/, "")}…`;
}
