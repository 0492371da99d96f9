// Built-in modules that read a file of their own in config_dir. The core checks those files itself before
// a session is created, so a mistake is one line and exit 2 at start instead of a worker dying mid-run
// (and, in a process shared by several built-ins, taking its neighbours down with it).

import { UserError } from "../contract/errors.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { ModuleName } from "../contract/registry.ts";
import { loadCompactFile, loadWebFile } from "../lib/config-files.ts";
import { loadUserHooksFile } from "../lib/hooks-config.ts";
import { readMcpFile, userMcpFile } from "../lib/mcp-config.ts";
import { loadBudgetFile } from "./load.ts";

/** Each module's own file and the check a run makes of it (throws a UserError). */
export const MODULE_CONFIG_FILES: Partial<
  Record<ModuleName, { file: string; check: (dir: string) => unknown }>
> = {
  budget: { file: "budget.json", check: loadBudgetFile },
  compact: { file: "compact.json", check: loadCompactFile },
  web: { file: "web.json", check: loadWebFile },
  mcp: { file: "mcp.json", check: (dir) => readMcpFile(userMcpFile(dir), "user") },
  hooks: { file: "hooks.json", check: loadUserHooksFile },
};

/** Why this module's own config file is unusable, or undefined (bound modules read what they like). */
export function moduleConfigProblem(
  module: Manifest["modules"][number],
  configDir: string,
): string | undefined {
  const entry = module.builtin ? MODULE_CONFIG_FILES[module.name] : undefined;
  if (!entry) return undefined;
  try {
    entry.check(configDir);
    return undefined;
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
}

/** Throw the first module config problem of a manifest as a UserError (exit 2). */
export function checkModuleConfigs(manifest: Manifest, configDir: string): void {
  for (const m of manifest.modules) {
    const problem = moduleConfigProblem(m, configDir);
    if (problem) throw new UserError(problem);
  }
}
