// What the setup writes: the key into config_dir/auth.json (mode 0600) and the provider, model and base URL
// into config.json, each atomically and each merged into what the file already holds, so a user's other
// keys and settings survive. Both files are checked against their schemas before anything is replaced.
import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../../config/paths.ts";
import type { AzureConfig, BedrockConfig, VertexConfig } from "../../contract/cloud-config.ts";
import { AuthFile, ConfigFile, type ModelInfo, type ProviderName } from "../../contract/config.ts";
import { UserError } from "../../contract/errors.ts";
import { writeFileAtomic } from "../../lib/atomic-write.ts";
import { parseWith, readConfigJson } from "../../lib/json-file.ts";

/** What the setup decided, complete: nothing is written before all of it is known. */
export interface SetupAnswers {
  provider: ProviderName;
  /** only for an OpenAI-compatible server; absent means the provider's own API */
  baseUrl?: string;
  /** absent: no key to store (a local server that needs none, or one the environment gives) */
  key?: string;
  model: string;
  /** limits for a model the built-in table does not know */
  modelInfo?: ModelInfo;
  /** the cloud's settings the setup asked for: never a secret, only where the credentials are */
  cloud?: SetupCloud;
}

export type SetupCloud =
  | { section: "vertex"; values: VertexConfig }
  | { section: "bedrock"; values: BedrockConfig }
  | { section: "azure"; values: AzureConfig };

/** The keys of each cloud section the setup answers for: set when answered, removed when not. */
const ASKED: Record<SetupCloud["section"], readonly string[]> = {
  vertex: ["project", "location", "credentials_file"],
  bedrock: ["region", "profile"],
  azure: ["endpoint", "deployment", "api_version"],
};

type JsonObject = Record<string, unknown>;

function readObject(file: string): JsonObject {
  const raw = readConfigJson(file, "fix or delete the file, then run the setup again") ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new UserError(`${file}: not a JSON object; fix or delete it, then run the setup again`);
  return raw as JsonObject;
}

/** config.json with the answers merged in (other keys kept as they are). */
export function mergedConfig(dir: string, a: SetupAnswers): JsonObject {
  const file = join(dir, "config.json");
  const next: JsonObject = { ...readObject(file), provider: a.provider, model: a.model };
  if (a.baseUrl) next.base_url = a.baseUrl;
  else delete next.base_url; // the provider's own API: an old local server URL must not stay in the way
  if (a.modelInfo)
    next.models = { ...((next.models as JsonObject | undefined) ?? {}), [a.model]: a.modelInfo };
  if (a.cloud) {
    // Other keys of the section (azure.wire, a routing preference) are the user's and stay.
    const old = next[a.cloud.section];
    const section: JsonObject = { ...(typeof old === "object" && old !== null ? (old as JsonObject) : {}) };
    const values = a.cloud.values as JsonObject;
    for (const k of ASKED[a.cloud.section]) {
      if (values[k] === undefined) delete section[k];
      else section[k] = values[k];
    }
    next[a.cloud.section] = section;
  }
  parseWith(file, ConfigFile, next);
  return next;
}

export type AuthSlot = "openai" | "anthropic" | "gemini" | "azure" | "openrouter";

/**
 * The auth.json slot a key goes in: a local server and the Responses API take OpenAI's; Bedrock and Vertex
 * have none (their credentials stay in the cloud's own files).
 */
export function authSlot(provider: ProviderName): AuthSlot | undefined {
  if (provider === "bedrock" || provider === "vertex") return undefined;
  return provider === "responses" ? "openai" : provider;
}

/** auth.json with `key` set for `slot`, or removed when `key` is undefined. */
export function mergedAuth(dir: string, slot: keyof AuthFile, key: string | undefined): JsonObject {
  const file = join(dir, "auth.json");
  const next: JsonObject = { ...readObject(file) };
  if (key === undefined) delete next[slot];
  else next[slot] = key;
  parseWith(file, AuthFile, next);
  return next;
}

/** Write auth.json private (0600), also when an older copy had wider permissions. */
export function writeAuth(dir: string, content: JsonObject): string {
  ensurePrivateDir(dir);
  const file = join(dir, "auth.json");
  writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, 0o600);
  chmodSync(file, 0o600); // the umask may have narrowed the create mode; never widen beyond 0600
  return file;
}

/** Save every answer: both files validated first, then replaced, auth.json before config.json. */
export function saveAnswers(dir: string, a: SetupAnswers): string[] {
  ensurePrivateDir(dir);
  const config = mergedConfig(dir, a);
  const slot = authSlot(a.provider);
  const auth = a.key !== undefined && slot ? mergedAuth(dir, slot, a.key) : undefined;
  const written: string[] = [];
  if (auth) written.push(writeAuth(dir, auth));
  const file = join(dir, "config.json");
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, mode);
  written.push(file);
  return written;
}

/** config.json as it would be saved, typed: what the test request runs with (the cloud sections). */
export function configAfter(dir: string, a: SetupAnswers): ConfigFile {
  return parseWith(join(dir, "config.json"), ConfigFile, mergedConfig(dir, a));
}

/** What config.json already holds for a cloud: the setup's defaults (a broken file is said when saving). */
export function savedCloud(dir: string, section: SetupCloud["section"]): SetupCloud | undefined {
  try {
    const values = readObject(join(dir, "config.json"))[section];
    if (typeof values !== "object" || values === null) return undefined;
    return { section, values: values as SetupCloud["values"] } as SetupCloud;
  } catch {
    return undefined;
  }
}
