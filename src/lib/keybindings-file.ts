// config_dir/keybindings.json, read the same way by the console (at start: a mistake is one line, exit 2)
// and by `i doctor`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { KeybindingsFile } from "../contract/keybindings.ts";
import { parseWith, readConfigJson } from "./json-file.ts";

/** The file checked strictly, or undefined when there is none (the defaults apply). */
export function loadKeybindingsFile(dir: string): KeybindingsFile | undefined {
  const file = join(dir, "keybindings.json");
  if (!existsSync(file)) return undefined;
  return parseWith(file, KeybindingsFile, readConfigJson(file) ?? {});
}
