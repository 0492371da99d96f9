// `i auth login|logout|status`: the first-run setup outside the console, forgetting a stored key, and where
// each provider's key comes from. Keys are never printed, not even in part.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../../config/load.ts";
import { configDir } from "../../config/paths.ts";
import type { ConfigFile } from "../../contract/config.ts";
import { UserError } from "../../contract/errors.ts";
import { AZURE_DEFAULT_API_VERSION } from "../../provider/azure/index.ts";
import { locateApiKey, PROVIDER_ENV } from "../../provider/credentials.ts";
import { credentialEnv } from "../../runtime/credential-handoff.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { definePassThrough } from "../command.ts";
import { terminalIo } from "../setup/ask.ts";
import { runSetup } from "../setup/first-run.ts";
import { authSlot, mergedAuth, writeAuth } from "../setup/setup-files.ts";

const SLOTS = ["openai", "anthropic", "gemini", "azure", "openrouter"] as const;
type Slot = (typeof SLOTS)[number] | "responses";
const USAGE = `usage: i auth login | i auth logout [${SLOTS.join("|")}|all] | i auth status`;
/** signed with the cloud's own credentials: status says where they are, logout has nothing to remove */
const CLOUDS = ["bedrock", "vertex"] as const;

async function login(): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new UserError(
      "i auth: login asks its questions on a terminal and none is attached; set I_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY) and pass -m NAME instead",
    );
  const io = terminalIo();
  let written: string[];
  try {
    written = await runSetup(io, configDir());
  } finally {
    io.close();
  }
  process.stdout.write(`saved ${written.join(" and ")}\n`);
  return 0;
}

function logout(which: string | undefined): number {
  const dir = configDir();
  const file = join(dir, "auth.json");
  // Without a name: the configured provider's key (config.json is read only then).
  const configured = which === undefined ? (loadConfigFile(dir).provider ?? "openai") : undefined;
  const own = configured && authSlot(configured);
  if (configured && own === undefined) {
    process.stdout.write(
      `${configured} signs with the cloud's own credentials; i stores no key for it (nothing removed)\n`,
    );
    return 0;
  }
  const slots: Slot[] | undefined =
    which === "all"
      ? [...SLOTS, "responses" as const]
      : (SLOTS as readonly string[]).includes(which ?? "")
        ? [which as Slot]
        : which === undefined && own
          ? [own]
          : undefined;
  if (!slots) throw new UserError(`i auth: logout: unknown provider "${sanitize(which ?? "")}"; ${USAGE}`);
  if (!existsSync(file)) {
    process.stdout.write(`no key stored (${file} does not exist)\n`);
    return 0;
  }
  const content = mergedAuth(dir, slots[0] ?? "openai", undefined);
  for (const s of slots.slice(1)) delete content[s];
  writeAuth(dir, content);
  process.stdout.write(`removed the ${slots.join(" and ")} key from ${file}\n`);
  const env = credentialEnv();
  for (const v of ["I_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", ...slots.flatMap((s) => keyVars(s))])
    if (env[v]?.trim()) process.stdout.write(`${v} is still set in your environment and is used first\n`);
  return 0;
}

function status(): number {
  const dir = configDir();
  const config = loadConfigFile(dir);
  const where = config.base_url ? ` at ${sanitize(config.base_url)}` : "";
  process.stdout.write(
    config.model
      ? `model: ${sanitize(config.model)} (${config.provider ?? "openai"}${where}) from ${join(dir, "config.json")}\n`
      : "model: none chosen; run `i auth login` or pass -m NAME\n",
  );
  for (const slot of SLOTS) {
    let line: string;
    try {
      line = `key found in ${locateApiKey(slot, dir, credentialEnv()).source}`;
    } catch (err) {
      if (!(err instanceof UserError) || !err.message.includes("no API key")) throw err;
      line = "no key";
    }
    process.stdout.write(`${slot}: ${line}${slot === "azure" ? azureSettings(config) : ""}\n`);
  }
  for (const cloud of CLOUDS) {
    let line: string;
    try {
      line = `credentials found: ${locateApiKey(cloud, dir, credentialEnv(), undefined, config).source}`;
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      line = `no credentials (${err.message.replace(/^\w+: /, "")})`;
    }
    process.stdout.write(`${cloud}: ${sanitize(line)}\n`);
  }
  return 0;
}

/** Azure's resource, deployment and version as a run would use them (the environment first). */
function azureSettings(config: ConfigFile): string {
  const env = credentialEnv();
  const az = config.azure ?? {};
  const endpoint = env.AZURE_OPENAI_ENDPOINT?.trim() || az.endpoint;
  if (!endpoint && !az.deployment) return "";
  const version = env.OPENAI_API_VERSION?.trim() || az.api_version || AZURE_DEFAULT_API_VERSION;
  return sanitize(
    `; endpoint ${endpoint ?? "not set"}, deployment ${az.deployment ?? "named after the model"}, api-version ${version}`,
  );
}

function keyVars(slot: Slot): readonly string[] {
  return slot === "responses" ? [] : PROVIDER_ENV[slot];
}

export const command = definePassThrough(
  {
    name: "i auth",
    description: "Set up a provider, key and model (login), forget a key (logout), or show them (status)",
  },
  async (raw) => {
    const [verb, arg, ...extra] = raw;
    if (verb === undefined) throw new UserError(`i auth: say what to do; ${USAGE}`);
    if (verb === "--help" || verb === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (extra.length > 0 || (arg !== undefined && verb !== "logout"))
      throw new UserError(`i auth: ${sanitize(verb)}: unexpected "${sanitize(arg ?? "")}"; ${USAGE}`);
    if (verb === "login") return login();
    if (verb === "logout") return logout(arg);
    if (verb === "status") return status();
    throw new UserError(`i auth: no subcommand "${sanitize(verb)}"; ${USAGE}`);
  },
);
