// `i doctor`, config_dir part: every file a run reads, checked by the function the run uses. A file that
// does not exist is reported as such ("not present, defaults used"), never as "ok".
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadBindingsFile, loadBudgetFile, loadConfigFile, loadPluginsFile } from "../config/load.ts";
import type { BindingsFile, ConfigFile, PluginsFile } from "../contract/config.ts";
import { loadCheckpointsPolicy } from "../lib/checkpoints-file.ts";
import { loadCompactFile, loadWebFile } from "../lib/config-files.ts";
import { loadUserHooksFile } from "../lib/hooks-config.ts";
import { loadKeybindingsFile } from "../lib/keybindings-file.ts";
import { checkAuthFile } from "../provider/credentials.ts";
import { attempt, type Row } from "./report.ts";

export interface ConfigReport {
  rows: Row[];
  config?: ConfigFile;
  plugins?: PluginsFile;
  bindings?: BindingsFile;
  budget?: ReturnType<typeof loadBudgetFile>;
}

const ABSENT = "not present, defaults used";

function fileRow<T>(
  dir: string,
  name: string,
  load: (dir: string) => T,
  detail: (v: T) => string,
  absent = ABSENT,
) {
  if (!existsSync(join(dir, name))) return { name, status: "-" as const, detail: absent };
  return attempt(name, () => load(dir), detail);
}

/** The rows for config.json, plugins.json, bindings.json, compact.json, budget.json and auth.json. */
export function checkConfigFiles(dir: string): ConfigReport {
  const config = fileRow(dir, "config.json", loadConfigFile, (c) =>
    [c.provider && `provider ${c.provider}`, c.model && `model ${c.model}`].filter(Boolean).join(", "),
  );
  const plugins = fileRow(dir, "plugins.json", loadPluginsFile, (p) =>
    [p.profile && `profile ${p.profile}`, p.disabled?.length && `disabled: ${p.disabled.join(", ")}`]
      .filter(Boolean)
      .join(", "),
  );
  const bindings = fileRow(dir, "bindings.json", loadBindingsFile, (b) => {
    const bound = Object.keys(b).filter((k) => !k.startsWith("$"));
    return bound.length ? `bound: ${bound.join(", ")}` : "no bindings";
  });
  const compact = fileRow(dir, "compact.json", loadCompactFile, (c) =>
    c.prompt ? `prompt ${c.prompt}` : "",
  );
  const budget = fileRow(dir, "budget.json", loadBudgetFile, () => "");
  const checkpoints = fileRow(dir, "checkpoints.json", loadCheckpointsPolicy, (p) =>
    p.enabled ? "" : "workspace checkpoints off",
  );
  const auth = fileRow(
    dir,
    "auth.json",
    checkAuthFile,
    (keys) => `private (mode 0600); keys for: ${keys?.join(", ") || "none"}`,
  );
  const keys = fileRow(dir, "keybindings.json", loadKeybindingsFile, (k) => {
    const set = Object.keys(k ?? {}).filter((a) => !a.startsWith("$"));
    return set.length ? `keys set for: ${set.join(", ")}` : "";
  });
  const hooks = fileRow(dir, "hooks.json", loadUserHooksFile, (h) => {
    const events = Object.keys(h?.hooks ?? {});
    return events.length ? `hooks on ${events.join(", ")}` : "no hooks";
  });
  const rows: Row[] = [config, plugins, bindings, compact, budget, checkpoints, keys, auth, hooks];
  const loaded = <T>(r: { status: string; value?: T }, dflt: T): T | undefined =>
    r.status === "FAILED" ? undefined : (r.value ?? dflt);
  return {
    rows,
    config: loaded(config, {}),
    plugins: loaded(plugins, {}),
    bindings: loaded(bindings, {}),
    budget: loaded(budget, {}),
  };
}

/** web.json: checked when the profile runs the built-in web module, else only said to be unused. */
export function webRow(dir: string, usesWeb: boolean): Row {
  if (!existsSync(join(dir, "web.json"))) return { name: "web.json", status: "-", detail: ABSENT };
  if (!usesWeb)
    return {
      name: "web.json",
      status: "-",
      detail: "present, not checked: no built-in web module in this profile",
    };
  return fileRow(dir, "web.json", loadWebFile, (w) => (w.search_endpoint ? "web_search enabled" : ""));
}
