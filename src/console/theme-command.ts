// `/theme [NAME]`: without a name, a picker whose marked row is applied as it moves (the picker, the
// status line and all that is drawn next show it; Esc puts the old theme back); with one, that theme.
// The choice is saved into config.json `theme` for the next start.
import { saveTheme, type ThemeSetting } from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import { type Style, setTheme } from "../terminal/style.ts";
import { PREVIEW_TEXT, type ThemeName } from "../terminal/themes.ts";
import type { PickRequest } from "./input/picker.ts";
import type { ConsoleUi } from "./ports.ts";
import { activeStyle } from "./theme.ts";

const CHOICES: readonly ThemeSetting[] = ["dark", "light", "auto", "high-contrast"];
const ABOUT: Record<ThemeSetting, string> = {
  dark: "for a dark background (the terminal's own colours)",
  light: "darker colours that stay readable on a light background",
  auto: "asks the terminal for its background at start",
  "high-contrast": "bold, no dim text, diffs in blue and orange",
};

function preview(s: Style): string {
  const t = PREVIEW_TEXT;
  return `  ${s.added(t.added)}  ${s.removed(t.removed)}  ${s.yellow(t.warning)}  ${s.red(t.error)}  ${s.cyan(t.code)}  ${s.dim(t.note)}`;
}

function choose(name: ThemeSetting, s: Style, ui: ConsoleUi): void {
  // auto is decided by the terminal at start; meanwhile this session keeps what it shows.
  if (name !== "auto") setTheme(s, name as ThemeName);
  let saved: string;
  try {
    saved = `saved in ${ui.clean(saveTheme(name))}`;
  } catch (err) {
    saved = `not saved: ${ui.clean(errorMessage(err))}`;
  }
  const now = name === "auto" ? ` (asked at the next start; now ${s.theme})` : "";
  ui.print(`theme ${name}${now} · ${saved}`, preview(s));
}

export async function themeCommand(
  args: string,
  ui: ConsoleUi,
  pick?: (req: PickRequest) => Promise<number | undefined>,
): Promise<void> {
  const s = activeStyle();
  if (!s) return;
  if (args) {
    const name = CHOICES.find((c) => c === args.toLowerCase());
    if (name) choose(name, s, ui);
    else ui.print(ui.red(`✗ /theme: unknown theme "${ui.clean(args)}"; choose ${CHOICES.join(", ")}`));
    return;
  }
  if (!pick) {
    ui.print(ui.dim(`theme ${s.theme}; /theme NAME switches: ${CHOICES.join(", ")}`), preview(s));
    return;
  }
  const before = s.theme;
  const index = await pick({
    title: "Theme (the marked one is shown as you move)",
    action: "choose",
    rows: CHOICES.map((c) => ({ label: c, detail: ABOUT[c] })),
    initial: Math.max(0, CHOICES.indexOf(before)),
    onMark: (i) => {
      const c = CHOICES[i];
      setTheme(s, c && c !== "auto" ? (c as ThemeName) : before);
    },
  });
  const name = index === undefined ? undefined : CHOICES[index];
  if (name) choose(name, s, ui);
  else setTheme(s, before);
}
