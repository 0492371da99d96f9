// Loads and validates every config_dir file. All optional; every problem is one clear line and exit 2.
import { isAbsolute, join, win32 } from "node:path";
import {
  type BindingsFile,
  BindingsFile as BindingsSchema,
  type BudgetFile,
  BudgetFile as BudgetSchema,
  type ConfigFile,
  ConfigFile as ConfigSchema,
  DEFAULT_REARM_RATIO,
  DEFAULT_TRIGGER_RATIO,
  type PluginsFile,
  PluginsFile as PluginsSchema,
} from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { PROFILE_NAMES } from "../contract/profiles.ts";
import { MODULE_NAMES } from "../contract/registry.ts";
import { parseWith, readConfigJson } from "../lib/json-file.ts";
import { refuseCredentialArgv } from "./credentials.ts";

export interface LoadedConfig {
  dir: string;
  config: ConfigFile;
  plugins: PluginsFile;
  bindings: BindingsFile;
  budget: BudgetFile;
}

const moduleList = MODULE_NAMES.join(", ");

function isAbsolutePath(p: string): boolean {
  return isAbsolute(p) || win32.isAbsolute(p);
}

export function loadConfigFile(dir: string): ConfigFile {
  const file = join(dir, "config.json");
  return parseWith(file, ConfigSchema, readConfigJson(file) ?? {});
}

/** True when a value in portable plugins.json looks like an executable path or argv. */
function looksLikeExecutable(v: unknown): boolean {
  if (typeof v === "string") return v.includes("/") || v.includes("\\");
  if (Array.isArray(v)) return v.some(looksLikeExecutable);
  if (v && typeof v === "object") return Object.values(v).some(looksLikeExecutable);
  return false;
}

export function loadPluginsFile(dir: string): PluginsFile {
  const file = join(dir, "plugins.json");
  const raw = readConfigJson(file) ?? {};
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      if (k.startsWith("$")) continue;
      if (k === "exec" || k === "bindings" || k === "cwd" || looksLikeExecutable(v)) {
        throw new UserError(
          `${file}: field ${k}: executable paths are not allowed in portable plugins.json; put them in bindings.json as {"MODULE":{"exec":["/abs/prog"]}}`,
        );
      }
    }
  }
  // A name outside the list is already answered with the list ("must be one of …").
  const plugins = parseWith(file, PluginsSchema, raw, (issue) =>
    issue.path[0] === "disabled" && issue.code !== "invalid_value"
      ? `use module names from: ${moduleList}`
      : undefined,
  );
  if (plugins.profile !== undefined && !PROFILE_NAMES.includes(plugins.profile)) {
    throw new UserError(
      `${file}: field profile: unknown profile "${plugins.profile}"; use one of: ${PROFILE_NAMES.join(", ")}`,
    );
  }
  return plugins;
}

export function loadBindingsFile(dir: string): BindingsFile {
  const file = join(dir, "bindings.json");
  const raw = readConfigJson(file) ?? {};
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [mod, b] of Object.entries(raw)) {
      if (mod.startsWith("$")) continue;
      if (!(MODULE_NAMES as readonly string[]).includes(mod)) {
        throw new UserError(`${file}: unknown module "${mod}"; bindable modules are: ${moduleList}`);
      }
      const exec = (b as { exec?: unknown } | null)?.exec;
      if (typeof exec === "string") {
        throw new UserError(
          `${file}: field ${mod}.exec: must be an argv array such as ["/abs/path/prog","--opt"], not a shell string`,
        );
      }
    }
  }
  const bindings = parseWith(file, BindingsSchema, raw);
  for (const [mod, b] of Object.entries(bindings)) {
    if (!b || typeof b === "string") continue;
    const [prog] = b.exec;
    if (!prog || !isAbsolutePath(prog)) {
      throw new UserError(
        `${file}: field ${mod}.exec[0]: "${prog}" is not an absolute path; give the full path to the executable`,
      );
    }
    if (b.cwd !== undefined && !isAbsolutePath(b.cwd)) {
      throw new UserError(
        `${file}: field ${mod}.cwd: "${b.cwd}" is not an absolute path; give an absolute directory or omit cwd`,
      );
    }
    refuseCredentialArgv(file, `${mod}.exec`, b.exec);
  }
  return bindings;
}

export function loadBudgetFile(dir: string): BudgetFile {
  const file = join(dir, "budget.json");
  const budget = parseWith(file, BudgetSchema, readConfigJson(file) ?? {});
  const trigger = budget.trigger_ratio ?? DEFAULT_TRIGGER_RATIO;
  const rearm = budget.rearm_ratio ?? DEFAULT_REARM_RATIO;
  if (rearm >= trigger) {
    throw new UserError(
      `${file}: field rearm_ratio: ${rearm} must be below trigger_ratio ${trigger}; lower rearm_ratio`,
    );
  }
  return budget;
}

export function loadConfig(dir: string): LoadedConfig {
  return {
    dir,
    config: loadConfigFile(dir),
    plugins: loadPluginsFile(dir),
    bindings: loadBindingsFile(dir),
    budget: loadBudgetFile(dir),
  };
}
