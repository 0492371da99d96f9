// Where the API key comes from: the environment first, then config_dir/auth.json — which must not be
// readable by other users. Keys are returned to the caller and never written to logs or messages.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CloudSettings } from "../contract/cloud-config.ts";
import { AuthFile, type ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { parseWith, readConfigJson } from "../lib/json-file.ts";
import { credentialEnv } from "../runtime/credential-handoff.ts";
import {
  type CloudProvider,
  ENTRA_PREFIX,
  isCloudProvider,
  locateCloudCredentials,
} from "./cloud-credentials.ts";
import { NOT_LOGGED_IN_PHRASE } from "./error-phrases.ts";

/** Stands in for a key when a local server needs none. Providers send no credential header for it. */
export const NO_KEY = "none";

/** Where each keyed provider's own tools look for a key, in order (bedrock and vertex use cloud files). */
export const PROVIDER_ENV: Record<Exclude<ProviderName, CloudProvider>, readonly string[]> = {
  openai: ["OPENAI_API_KEY"],
  responses: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  gemini: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  azure: ["AZURE_OPENAI_API_KEY", "AZURE_OPENAI_AD_TOKEN"],
  openrouter: ["OPENROUTER_API_KEY"],
};

/** True for a base URL on this machine (localhost, 127.0.0.0/8, ::1): a local server may need no key. */
export function isLocalBaseUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]";
}

/** Refuse an auth.json that group or others may read or write: the keys in it would be exposed. */
function checkPrivate(file: string): void {
  if (process.platform === "win32") return; // POSIX permission bits mean nothing there
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new UserError(
      `${file}: mode ${mode.toString(8).padStart(4, "0")} lets other users read your API keys; run: chmod 600 ${file}`,
    );
  }
}

/** config_dir/auth.json checked (private mode, schema), or undefined when there is none. */
function readAuthFile(dir: string): AuthFile | undefined {
  const file = join(dir, "auth.json");
  if (!existsSync(file)) return undefined;
  checkPrivate(file);
  return parseWith(file, AuthFile, readConfigJson(file) ?? {});
}

function fromAuthFile(provider: Exclude<ProviderName, CloudProvider>, dir: string): string | undefined {
  const auth = readAuthFile(dir);
  // The Responses API takes the same key as Chat Completions.
  return provider === "responses" ? (auth?.responses ?? auth?.openai) : auth?.[provider];
}

/** Where a key was found: an environment variable's name, the auth.json path, or "none needed". */
export interface LocatedKey {
  key: string;
  source: string;
}

/**
 * The API key for `provider` and where it came from: I_API_KEY, then OPENAI_API_KEY / ANTHROPIC_API_KEY,
 * then auth.json. With a local `baseUrl` and no key anywhere, NO_KEY. Otherwise a UserError naming every
 * place a key can go.
 */
export function locateApiKey(
  provider: ProviderName,
  configDir: string,
  env: NodeJS.ProcessEnv = credentialEnv(),
  baseUrl?: string,
  cloud: CloudSettings = {},
): LocatedKey {
  // Bedrock and Vertex sign with the cloud's own credentials, found where its tools find them.
  if (isCloudProvider(provider)) return locateCloudCredentials(provider, env, cloud);
  const names = PROVIDER_ENV[provider];
  for (const name of ["I_API_KEY", ...names]) {
    const key = env[name]?.trim();
    if (key) return { key: name === "AZURE_OPENAI_AD_TOKEN" ? `${ENTRA_PREFIX}${key}` : key, source: name };
  }
  const specific = names.join(" or ");
  const file = join(configDir, "auth.json");
  const stored = fromAuthFile(provider, configDir)?.trim();
  if (stored) return { key: stored, source: file };
  if (isLocalBaseUrl(baseUrl)) return { key: NO_KEY, source: "none needed (local base URL)" };
  throw new UserError(
    `${NOT_LOGGED_IN_PHRASE}: no API key for provider "${provider}": set I_API_KEY or ${specific}, or add {"${provider}":"KEY"} to ${file} (chmod 600)`,
  );
}

/** The key alone (see locateApiKey). */
export function resolveApiKey(
  provider: ProviderName,
  configDir: string,
  env: NodeJS.ProcessEnv = credentialEnv(),
  baseUrl?: string,
  cloud: CloudSettings = {},
): string {
  return locateApiKey(provider, configDir, env, baseUrl, cloud).key;
}

/**
 * Check config_dir/auth.json whether or not a run would read it (an environment key takes precedence):
 * private mode, valid JSON, known keys. Returns the providers it holds keys for, or undefined when absent.
 */
export function checkAuthFile(configDir: string): string[] | undefined {
  const auth = readAuthFile(configDir);
  return auth && Object.keys(auth).filter((k) => !k.startsWith("$"));
}
