// What the terminal can do, decided once: colour (a TTY, NO_COLOR unset, TERM not dumb) and cursor
// movement (a TTY and TERM not dumb). Colours come from the style's theme (themes.ts); without colour every
// paint is the identity, whichever theme is set, so NO_COLOR and TERM=dumb always win. A style's theme can
// be changed in place (`/theme`): its paints look the palette up on every call, so a paint taken earlier
// (`const dim = s.dim`) follows the change.
import { PAINT_NAMES, PALETTES, type PaintName, type Palette, type ThemeName } from "./themes.ts";

export interface TermCaps {
  /** SGR colours and attributes */
  color: boolean;
  /** cursor movement and in-place redraws (the live region) */
  cursor: boolean;
}

export function detectCaps(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): TermCaps {
  const tty = !!stream.isTTY;
  const dumb = env.TERM === "dumb";
  return { color: tty && !dumb && !("NO_COLOR" in env && env.NO_COLOR !== ""), cursor: tty && !dumb };
}

type Paint = (s: string) => string;

export type Style = { readonly caps: TermCaps; readonly theme: ThemeName } & Record<PaintName, Paint>;

const plain: Paint = (s) => s;
const CSI = "\u001b[";

/**
 * `s` wrapped in the pair; a close of the same kind inside `s` (a nested paint ending) re-opens this one,
 * so the text after it keeps the outer colour.
 */
function wrap([open, close]: readonly [string, string], s: string): string {
  if (open === "" || s === "") return s;
  const closeSeq = `${CSI}${close}m`;
  const openSeq = `${CSI}${open}m`;
  return `${openSeq}${s.replaceAll(closeSeq, closeSeq + openSeq)}${closeSeq}`;
}

const palettes = new WeakMap<Style, { palette: Palette; name: ThemeName }>();

export function makeStyle(caps: TermCaps, theme: ThemeName = "dark"): Style {
  const state = { palette: PALETTES[theme], name: theme };
  const style = {
    caps,
    get theme() {
      return state.name;
    },
  } as Style;
  for (const name of PAINT_NAMES)
    (style as Record<PaintName, Paint>)[name] = caps.color ? (s) => wrap(state.palette[name], s) : plain;
  palettes.set(style, state);
  return style;
}

/** Switch `style` to `theme` in place (every paint taken from it follows). */
export function setTheme(style: Style, theme: ThemeName): void {
  const state = palettes.get(style);
  if (!state) return;
  state.palette = PALETTES[theme];
  state.name = theme;
}

/** The style of this process's stdout. */
export const stdoutStyle: Style = makeStyle(detectCaps());
