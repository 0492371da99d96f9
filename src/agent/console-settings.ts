// What config_dir says about the console itself: config.json's title, notifications and theme. Read
// before a session opens (the colours are needed for the first line drawn), so it is a function of the
// config directory, not of a session. `/theme` saves its choice back into config.json, atomically and
// without touching any other key.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { configDir } from "../config/paths.ts";
import { ConfigFile } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import type { KeybindingsFile } from "../contract/keybindings.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { parseWith, readConfigJson } from "../lib/json-file.ts";
import { loadKeybindingsFile } from "../lib/keybindings-file.ts";

export type ConsoleSettings = Pick<ConfigFile, "terminal_title" | "notifications" | "theme">;
export type ThemeSetting = NonNullable<ConfigFile["theme"]>;

export function readConsoleSettings(dir: string = configDir()): ConsoleSettings {
  const { terminal_title, notifications, theme } = loadConfig(dir).config;
  return {
    ...(terminal_title !== undefined ? { terminal_title } : {}),
    ...(notifications ? { notifications } : {}),
    ...(theme ? { theme } : {}),
  };
}

/** Set config.json `theme`, keeping every other key as it is; returns the file written. */
export function saveTheme(theme: ThemeSetting, dir: string = configDir()): string {
  const file = join(dir, "config.json");
  const raw = readConfigJson(file) ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new UserError(`${file}: not a JSON object; fix it, then choose the theme again`);
  const next = { ...(raw as Record<string, unknown>), theme };
  parseWith(file, ConfigFile, next);
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, mode);
  return file;
}

/** config_dir/keybindings.json checked strictly, or undefined when there is none (the defaults apply). */
export function readKeybindings(dir: string = configDir()): KeybindingsFile | undefined {
  return loadKeybindingsFile(dir);
}
