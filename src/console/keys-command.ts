// `/keys`: the key map in force (keybindings.json over the defaults), one line per action. One console
// runs per process, so the map it reads keys with is kept here for the command.
import { columns } from "../terminal/columns.ts";
import { KeyMap } from "./input/keymap.ts";
import type { ConsoleUi } from "./ports.ts";

let consoleKeys = new KeyMap(undefined);

export function useKeyMap(map: KeyMap): void {
  consoleKeys = map;
}

export function keysCommand(ui: ConsoleUi): void {
  const note = consoleKeys.custom
    ? "keys in force (keybindings.json in the config directory over the defaults):"
    : "keys in force (the defaults; put keybindings.json in the config directory to change them):";
  ui.print(ui.dim(note), ...columns(consoleKeys.lines(), ui.width(), { maxTerm: 16 }).map((l) => ui.dim(l)));
}
