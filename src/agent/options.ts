// Resolves what one run needs from flags, environment and config.json, in that order of precedence.
import { realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { configDir } from "../config/paths.ts";
import { type ConfigFile, ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { baseUrlProblem } from "../provider/base-url.ts";

export interface RunFlags {
  model?: string;
  provider?: string;
  baseUrl?: string;
  workspace?: string;
}

export interface ResolvedTarget {
  provider: ProviderName;
  model: string;
  baseUrl?: string;
}

const PROVIDERS: readonly ProviderName[] = ProviderName.options;

/** What a saved session recorded about its target (meta.json). */
export interface RecordedTarget {
  provider?: string;
  model?: string;
  base_url?: string;
}

/**
 * Provider, model and base URL by precedence: flags, then what a resumed session recorded (so `-c`, `-r`
 * and `i compact` continue with the model and server the session used), then I_PROVIDER / I_MODEL /
 * I_BASE_URL, then config.json. The recorded model and base URL are not reused with a different
 * --provider: they belong to the recorded one.
 */
export function resolveTarget(
  flags: RunFlags,
  config: ConfigFile,
  env: NodeJS.ProcessEnv = process.env,
  recorded: RecordedTarget = {},
): ResolvedTarget {
  // An empty variable (`export I_MODEL=`) counts as unset, as it does for the API key variables.
  const fromEnv = (name: string) => env[name]?.trim() || undefined;
  const provider =
    flags.provider ?? recorded.provider ?? fromEnv("I_PROVIDER") ?? config.provider ?? "openai";
  if (!PROVIDERS.includes(provider as ProviderName)) {
    const from = flags.provider ? "--provider" : recorded.provider ? "the resumed session" : "I_PROVIDER";
    throw new UserError(`${from}: unknown provider "${provider}"; use one of ${PROVIDERS.join(", ")}`);
  }
  const sameProvider = !flags.provider || flags.provider === (recorded.provider ?? flags.provider);
  const model =
    flags.model ?? (sameProvider ? recorded.model : undefined) ?? fromEnv("I_MODEL") ?? config.model;
  if (!model) {
    // Named in full: on a first run the user has no config.json yet and does not know where it would go.
    const file = join(configDir(env), "config.json");
    throw new UserError(`no model chosen: pass -m NAME, set I_MODEL, or set "model" in ${file}`);
  }
  const recordedUrl = sameProvider ? recorded.base_url : undefined;
  const baseUrl = flags.baseUrl ?? recordedUrl ?? fromEnv("I_BASE_URL") ?? config.base_url;
  const problem = baseUrl === undefined ? undefined : baseUrlProblem(baseUrl);
  if (problem) {
    // A recorded URL can only be bad if meta.json or the log was edited: the fix is a flag that wins.
    const fix =
      flags.baseUrl === undefined && recordedUrl !== undefined
        ? "the resumed session recorded it; pass --base-url to use another"
        : "fix --base-url, I_BASE_URL or config.json base_url";
    throw new UserError(`${problem}; ${fix}`);
  }
  return { provider: provider as ProviderName, model, ...(baseUrl ? { baseUrl } : {}) };
}

/** The workspace: an existing directory, resolved to its real path so path checks cannot be fooled. */
export function resolveWorkspace(dir: string | undefined): string {
  // Without --workspace it is the current directory, which can have been removed under the shell.
  const what = dir === undefined ? "the current directory" : "--workspace";
  const fix =
    dir === undefined ? "cd to an existing directory or pass --workspace DIR" : "pass an existing directory";
  let abs: string;
  let st: ReturnType<typeof statSync>;
  try {
    abs = resolve(dir ?? process.cwd());
  } catch {
    throw new UserError(`${what} no longer exists; ${fix}`);
  }
  try {
    st = statSync(abs);
  } catch {
    throw new UserError(`${what}: "${abs}" does not exist; ${fix}`);
  }
  if (!st.isDirectory()) throw new UserError(`${what}: "${abs}" is not a directory; ${fix}`);
  return realpathSync(abs);
}
