// Where the API key comes from: the environment first, then config_dir/auth.json — which must not be
// readable by other users. Keys are returned to the caller and never written to logs or messages.
import { statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../cli/errors.ts";
import { parseWith, readConfigJson } from "../config/json-file.ts";
import { AuthFile, type ProviderName } from "../config/schemas.ts";

/** Stands in for a key when a local server needs none. Providers send no credential header for it. */
export const NO_KEY = "none";

const PROVIDER_ENV: Record<ProviderName, string> = {
  openai: "OPENAI_API_KEY",
  responses: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
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

function fromAuthFile(provider: ProviderName, dir: string): string | undefined {
  const file = join(dir, "auth.json");
  let exists = true;
  try {
    statSync(file);
  } catch {
    exists = false;
  }
  if (!exists) return undefined;
  checkPrivate(file);
  const auth = parseWith(file, AuthFile, readConfigJson(file) ?? {});
  // The Responses API takes the same key as Chat Completions.
  return provider === "responses" ? (auth.responses ?? auth.openai) : auth[provider];
}

/**
 * The API key for `provider`: I_API_KEY, then OPENAI_API_KEY / ANTHROPIC_API_KEY, then auth.json. With a
 * local `baseUrl` and no key anywhere, NO_KEY. Otherwise a UserError naming every place a key can go.
 */
export function resolveApiKey(
  provider: ProviderName,
  configDir: string,
  env: NodeJS.ProcessEnv = process.env,
  baseUrl?: string,
): string {
  const specific = PROVIDER_ENV[provider];
  const fromEnv = env.I_API_KEY?.trim() || env[specific]?.trim();
  if (fromEnv) return fromEnv;
  const stored = fromAuthFile(provider, configDir)?.trim();
  if (stored) return stored;
  if (isLocalBaseUrl(baseUrl)) return NO_KEY;
  const file = join(configDir, "auth.json");
  throw new UserError(
    `no API key for provider "${provider}": set I_API_KEY or ${specific}, or add {"${provider}":"KEY"} to ${file} (chmod 600)`,
  );
}
