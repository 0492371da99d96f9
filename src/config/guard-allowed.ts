// config_dir/guard-allowed.json: the exact commands the user answered "always" to at the guard's
// question, per workspace. Exact text only, never a pattern: a changed command asks again.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import { GUARD_ALLOWED_FILE, GuardAllowedFile } from "../contract/guard.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { readConfigJson } from "../lib/json-file.ts";
import { workspaceKey } from "../lib/trust-store.ts";

function read(configDir: string): GuardAllowedFile {
  const file = join(configDir, GUARD_ALLOWED_FILE);
  const raw = readConfigJson(file);
  if (raw === undefined) return { workspaces: {} };
  const parsed = GuardAllowedFile.safeParse(raw);
  if (!parsed.success)
    throw new UserError(
      `${file}: not a valid list of allowed commands; fix it or delete it (the guard will ask again)`,
    );
  return parsed.data;
}

/** The commands allowed in `workspace`. */
export function allowedCommands(configDir: string, workspace: string): Set<string> {
  return new Set(read(configDir).workspaces[workspaceKey(workspace)]?.commands ?? []);
}

/** Remember `command` as allowed in `workspace` (an atomic write of the whole file). */
export function rememberCommand(configDir: string, workspace: string, command: string): void {
  const store = read(configDir);
  const key = workspaceKey(workspace);
  const entry = store.workspaces[key] ?? { commands: [] };
  if (!entry.commands.includes(command)) entry.commands.push(command);
  store.workspaces[key] = entry;
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(configDir, GUARD_ALLOWED_FILE), `${JSON.stringify(store, null, 2)}\n`, 0o600);
}
