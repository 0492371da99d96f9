// The console's logo.
export const LOGO = [
  "  ██╗",
  "  ╚═╝   i — a coding agent for the terminal",
  "  ██╗   replaceable workers · compaction that never loses your work",
  "  ██║",
  "  ╚═╝",
].join("\n");
