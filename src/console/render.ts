// The console's logo.
import { visibleWidth } from "../terminal/width.ts";

export const LOGO = [
  "  ██╗",
  "  ╚═╝   i — a coding agent for the terminal",
  "  ██╗   replaceable workers · compaction that never loses your work",
  "  ██║",
  "  ╚═╝",
].join("\n");

/** The logo's lines for a pane `width` columns wide: a tagline that would wrap is left out, the mark stays. */
export function logoLines(width: number): string[] {
  return LOGO.split("\n").map((l) => (visibleWidth(l) <= width ? l : l.slice(0, 5).trimEnd()));
}
