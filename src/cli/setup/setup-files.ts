// What the setup writes: the key into config_dir/auth.json (mode 0600) and the provider, model and base URL
// into config.json, each atomically and each merged into what the file already holds, so a user's other
// keys and settings survive. Both files are checked against their schemas before anything is replaced.
import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../../config/paths.ts";
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
}

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
  parseWith(file, ConfigFile, next);
  return next;
}

/** The auth.json slot a key goes in: a local server speaks the OpenAI wire, so it takes that one. */
export function authSlot(provider: ProviderName): "openai" | "anthropic" {
  return provider === "anthropic" ? "anthropic" : "openai";
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
  const auth = a.key !== undefined ? mergedAuth(dir, authSlot(a.provider), a.key) : undefined;
  const written: string[] = [];
  if (auth) written.push(writeAuth(dir, auth));
  const file = join(dir, "config.json");
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, mode);
  written.push(file);
  return written;
}
