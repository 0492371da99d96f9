// Every user-facing file of config_dir with its schema, for schema generation and `i doctor`. Kept apart
// from config.ts: the hooks and keybindings schemas it names are built only by the programs that list
// them, not by every process that reads config.json (the worker reads neither file).
import { BindingsFile, BudgetFile, CompactFile, ConfigFile, PluginsFile, WebFile } from "./config.ts";
import { HooksFile } from "./hooks-file.ts";
import { KeybindingsFile } from "./keybindings.ts";

export const CONFIG_FILES = {
  "config.json": ConfigFile,
  "plugins.json": PluginsFile,
  "bindings.json": BindingsFile,
  "compact.json": CompactFile,
  "budget.json": BudgetFile,
  "web.json": WebFile,
  "keybindings.json": KeybindingsFile,
  "hooks.json": HooksFile,
} as const;
