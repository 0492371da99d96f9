// The console's colour themes: which SGR sequence each paint uses. dark is the terminal's own palette (what
// `i` always drew); light swaps the colours that fade on a white background (yellow, cyan, gray, the
// greens) for darker 256-colour ones; high-contrast is bold and bright, drops dim, and draws diffs in blue
// and orange instead of green and red, which red-green colour blindness cannot tell apart. Every diff line
// also keeps its + or - in front, a cue that needs no colour at all.

/** The paints a style offers; `added`/`removed` are a diff's two sides. */
export const PAINT_NAMES = [
  "bold",
  "dim",
  "italic",
  "underline",
  "strike",
  "inverse",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "gray",
  "greenBg",
  "redBg",
  "added",
  "removed",
] as const;
export type PaintName = (typeof PAINT_NAMES)[number];

/** An SGR pair: the parameters that switch an attribute on, and those that switch it off again. */
export type Sgr = readonly [open: string, close: string];
export type Palette = Readonly<Record<PaintName, Sgr>>;

export const THEME_NAMES = ["dark", "light", "high-contrast"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

const FG = "39";
const BG = "49";

const DARK: Palette = {
  bold: ["1", "22"],
  dim: ["2", "22"],
  italic: ["3", "23"],
  underline: ["4", "24"],
  strike: ["9", "29"],
  inverse: ["7", "27"],
  red: ["31", FG],
  green: ["32", FG],
  yellow: ["33", FG],
  blue: ["34", FG],
  magenta: ["35", FG],
  cyan: ["36", FG],
  gray: ["90", FG],
  greenBg: ["42", BG],
  redBg: ["41", BG],
  added: ["32", FG],
  removed: ["31", FG],
};

const LIGHT: Palette = {
  ...DARK,
  red: ["38;5;124", FG],
  green: ["38;5;28", FG],
  yellow: ["38;5;130", FG],
  blue: ["38;5;25", FG],
  magenta: ["38;5;90", FG],
  cyan: ["38;5;30", FG],
  gray: ["38;5;242", FG],
  greenBg: ["48;5;194", BG],
  redBg: ["48;5;224", BG],
  added: ["38;5;28", FG],
  removed: ["38;5;124", FG],
};

const HIGH_CONTRAST: Palette = {
  ...DARK,
  // dim is the first thing to vanish for a reader who needs contrast: plain text instead
  dim: ["", ""],
  red: ["1;91", "22;39"],
  green: ["1;92", "22;39"],
  yellow: ["1;93", "22;39"],
  blue: ["1;94", "22;39"],
  magenta: ["1;95", "22;39"],
  cyan: ["1;96", "22;39"],
  gray: ["37", FG],
  greenBg: ["44", BG],
  redBg: ["48;5;208", BG],
  added: ["1;38;5;33", "22;39"],
  removed: ["1;38;5;208", "22;39"],
};

export const PALETTES: Readonly<Record<ThemeName, Palette>> = {
  dark: DARK,
  light: LIGHT,
  "high-contrast": HIGH_CONTRAST,
};

/** One line in each theme's colours, for the /theme picker's preview. */
export const PREVIEW_TEXT = {
  added: "+ added line",
  removed: "- removed line",
  warning: "warning",
  error: "✗ error",
  code: "`code`",
  note: "a dim note",
} as const;
