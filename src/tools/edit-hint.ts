// When `edit` cannot find old_text, say where the model probably meant, so its next attempt succeeds.
import { closestWindow } from "./edit/closest.ts";
import type { FileLines } from "./edit/lines.ts";

/** A sentence (or a few lines) explaining why old_text is not in the file and where it probably is. */
export function notFoundHint(f: FileLines, oldText: string): string {
  const oldLines = oldText.split(/\r?\n/);
  if (oldLines.filter((l) => l.trim() !== "").every((l) => /^\s*\d+\t/.test(l))) {
    return "old_text seems to include the line numbers shown by read; leave out the number and tab at the start of each line";
  }
  return (
    closestWindow(f, oldText) ??
    "nothing similar was found; read the file again and copy old_text exactly, whitespace included"
  );
}
