// The console's theme: chosen once before the first line is drawn (config.json `theme`; `auto` asks the
// terminal), and switched in place by /theme. One console runs per process, so the style it draws with is
// kept here for /theme to change.
import { readConsoleSettings } from "../agent/agent-session.ts";
import { type Style, setTheme } from "../terminal/style.ts";
import type { ThemeName } from "../terminal/themes.ts";
import { autoTheme } from "./theme-probe.ts";

let consoleStyle: Style | undefined;

/** The style the console draws with, for /theme. */
export function activeStyle(): Style | undefined {
  return consoleStyle;
}

/**
 * Set `style` to the configured theme. A config.json that cannot be read is left to the session's opening
 * to report (one line, as always); the colours stay dark meanwhile.
 */
export async function applyConfiguredTheme(
  style: Style,
  stdin: Parameters<typeof autoTheme>[0],
  write: (s: string) => void,
): Promise<ThemeName> {
  consoleStyle = style;
  let setting: ReturnType<typeof readConsoleSettings>["theme"];
  try {
    setting = readConsoleSettings().theme;
  } catch {
    return style.theme;
  }
  const theme =
    setting === "auto" ? (style.caps.color ? await autoTheme(stdin, write) : "dark") : (setting ?? "dark");
  setTheme(style, theme);
  return theme;
}
