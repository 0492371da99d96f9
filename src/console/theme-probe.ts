// `theme: auto`: ask the terminal for its background colour (OSC 11) and pick light or dark by its
// luminance. A terminal that does not answer within the timeout is not waited for: COLORFGBG (set by
// rxvt, Konsole and others) decides then, else dark. Bytes the user typed while the answer was awaited
// are handed back to the input, not lost.

import type { RawStdin } from "../terminal/raw-stdin.ts";
import type { ThemeName } from "../terminal/themes.ts";

export const PROBE_TIMEOUT_MS = 300;
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const QUERY = `${ESC}]11;?${BEL}`;
// rgb:RRRR/GGGG/BBBB (1 to 4 hex digits each), ended by BEL or ST
const ANSWER = new RegExp(
  `${ESC}\\]11;rgb:([0-9a-f]{1,4})/([0-9a-f]{1,4})/([0-9a-f]{1,4})(?:${BEL}|${ESC}\\\\)`,
  "i",
);

/** light or dark for an OSC 11 answer, or undefined when `text` holds none. */
export function themeFromAnswer(text: string): { theme: ThemeName; rest: string } | undefined {
  const m = ANSWER.exec(text);
  if (!m) return undefined;
  const [r, g, b] = [m[1], m[2], m[3]].map(
    (h) => Number.parseInt(h as string, 16) / (16 ** (h as string).length - 1),
  );
  // Relative luminance (sRGB weights): above the middle the background is light.
  const lum = 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);
  return {
    theme: lum > 0.5 ? "light" : "dark",
    rest: text.slice(0, m.index) + text.slice(m.index + m[0].length),
  };
}

/** COLORFGBG is "fg;bg" (sometimes "fg;default;bg"): a background of 7 or 15 is light. */
export function themeFromColorFgBg(value: string | undefined): ThemeName | undefined {
  if (!value) return undefined;
  const bg = Number(value.split(";").at(-1));
  if (!Number.isInteger(bg)) return undefined;
  return bg === 7 || (bg >= 9 && bg <= 15) ? "light" : "dark";
}

/** Ask the terminal; resolves with its theme, or undefined when it did not answer in time. */
export function probeBackground(
  stdin: RawStdin,
  write: (s: string) => void,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ThemeName | undefined> {
  return new Promise((resolve) => {
    let got = "";
    const finish = (theme: ThemeName | undefined, rest: string) => {
      clearTimeout(timer);
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      if (rest) stdin.unshift?.(Buffer.from(rest, "utf8"));
      resolve(theme);
    };
    const onData = (chunk: Buffer) => {
      got += chunk.toString("utf8");
      const hit = themeFromAnswer(got);
      if (hit) finish(hit.theme, hit.rest);
    };
    const timer = setTimeout(() => finish(undefined, got), timeoutMs);
    stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
    write(QUERY);
  });
}

/** The theme `auto` stands for here: the terminal's answer, else COLORFGBG, else dark. */
export async function autoTheme(
  stdin: RawStdin,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ThemeName> {
  const answered = stdin.isTTY ? await probeBackground(stdin, write) : undefined;
  return answered ?? themeFromColorFgBg(env.COLORFGBG) ?? "dark";
}
