// What the terminal can do, decided once: colour (a TTY, NO_COLOR unset, TERM not dumb) and cursor
// movement (a TTY and TERM not dumb). Styling goes through consola's colour functions, applied only when
// colour is on here: consola alone would colour output in CI even when it is piped into a file.
import { colors } from "consola/utils";

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

export interface Style {
  readonly caps: TermCaps;
  bold: Paint;
  dim: Paint;
  italic: Paint;
  underline: Paint;
  strike: Paint;
  inverse: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  blue: Paint;
  magenta: Paint;
  cyan: Paint;
  gray: Paint;
  greenBg: Paint;
  redBg: Paint;
}

const plain: Paint = (s) => s;

export function makeStyle(caps: TermCaps): Style {
  const c = (name: keyof typeof colors): Paint => (caps.color ? (s) => colors[name](s) : plain);
  return {
    caps,
    bold: c("bold"),
    dim: c("dim"),
    italic: c("italic"),
    underline: c("underline"),
    strike: c("strikethrough"),
    inverse: c("inverse"),
    red: c("red"),
    green: c("green"),
    yellow: c("yellow"),
    blue: c("blue"),
    magenta: c("magenta"),
    cyan: c("cyan"),
    gray: c("gray"),
    greenBg: c("bgGreen"),
    redBg: c("bgRed"),
  };
}

/** The style of this process's stdout. */
export const stdoutStyle: Style = makeStyle(detectCaps());
