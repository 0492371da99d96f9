// AWS credentials and region, found the way the AWS CLI and SDKs find them: the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), then the profile (AWS_PROFILE, config.json
// `bedrock.profile`, else "default") in ~/.aws/credentials and ~/.aws/config (AWS_SHARED_CREDENTIALS_FILE
// and AWS_CONFIG_FILE move them). Profiles that need another service to produce keys (SSO, assume-role,
// credential_process) and instance metadata are not built: they are named in one line, with what to do.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { BedrockConfig } from "../../contract/cloud-config.ts";
import { UserError } from "../../contract/errors.ts";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
  /** where they came from, for `i auth status` and `i doctor` (never the secret) */
  source: string;
}

type Sections = Map<string, Record<string, string>>;

/** An INI file as the AWS tools write it: `[section]`, `key = value`, `#` and `;` comments. */
export function parseIni(text: string): Sections {
  const out: Sections = new Map();
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (head?.[1]) {
      current = {};
      out.set(head[1], current);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq > 0 && current) current[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  return out;
}

function readIni(file: string): Sections {
  if (!existsSync(file)) return new Map();
  try {
    return parseIni(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(`bedrock: cannot read ${file}: ${(err as Error).message}`);
  }
}

const UNSUPPORTED: [string, string][] = [
  ["sso_start_url", "SSO"],
  ["sso_session", "SSO"],
  ["role_arn", "assume-role"],
  ["credential_process", "credential_process"],
  ["web_identity_token_file", "web identity"],
];

function fromEnvironment(env: NodeJS.ProcessEnv): Omit<AwsCredentials, "region"> | undefined {
  const id = env.AWS_ACCESS_KEY_ID?.trim();
  const secret = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (!id && !secret) return undefined;
  if (!id || !secret) {
    const missing = id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID";
    throw new UserError(
      `bedrock: ${missing} is not set though its pair is; set both, or neither to use a profile`,
    );
  }
  const token = env.AWS_SESSION_TOKEN?.trim();
  return {
    accessKeyId: id,
    secretAccessKey: secret,
    ...(token ? { sessionToken: token } : {}),
    source: "AWS_ACCESS_KEY_ID",
  };
}

/** Where the AWS tools keep the shared credentials and config files. */
export function awsFiles(env: NodeJS.ProcessEnv): { credFile: string; configFile: string } {
  const home = env.HOME || homedir();
  return {
    credFile: env.AWS_SHARED_CREDENTIALS_FILE || join(home, ".aws", "credentials"),
    configFile: env.AWS_CONFIG_FILE || join(home, ".aws", "config"),
  };
}

/** The profiles of both files, by name: credentials' `[name]`, config's `[default]` and `[profile name]`. */
export function awsProfiles(env: NodeJS.ProcessEnv): Map<string, Record<string, string>> {
  const { credFile, configFile } = awsFiles(env);
  const out = new Map<string, Record<string, string>>();
  for (const [section, values] of readIni(configFile)) {
    const name = section === "default" ? section : /^profile\s+(\S+)$/.exec(section)?.[1];
    if (name) out.set(name, { ...values });
  }
  for (const [name, values] of readIni(credFile)) out.set(name, { ...out.get(name), ...values });
  return out;
}

/** The credentials and region for Bedrock, or a UserError naming what is missing and how to give it. */
export function resolveAwsCredentials(env: NodeJS.ProcessEnv, cfg: BedrockConfig = {}): AwsCredentials {
  const { credFile, configFile } = awsFiles(env);
  const explicit = env.AWS_PROFILE?.trim() || cfg.profile;
  const profile = explicit || "default";
  const fromEnv = explicit && !env.AWS_ACCESS_KEY_ID ? undefined : fromEnvironment(env);
  const creds = readIni(credFile).get(profile);
  const config = readIni(configFile).get(profile === "default" ? "default" : `profile ${profile}`);
  const region =
    env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || cfg.region || config?.region || creds?.region;
  if (!region) {
    throw new UserError(
      `bedrock: no AWS region: set AWS_REGION, "bedrock": {"region": "us-east-1"} in config.json, or region in ${configFile}`,
    );
  }
  if (fromEnv) return { ...fromEnv, region };
  const merged = { ...config, ...creds };
  const id = merged.aws_access_key_id;
  const secret = merged.aws_secret_access_key;
  if (id && secret) {
    const token = merged.aws_session_token;
    const file = creds?.aws_access_key_id ? credFile : configFile;
    return {
      accessKeyId: id,
      secretAccessKey: secret,
      ...(token ? { sessionToken: token } : {}),
      region,
      source: `${file} [${profile}]`,
    };
  }
  const kind = UNSUPPORTED.find(([key]) => merged[key] !== undefined)?.[1];
  if (kind) {
    throw new UserError(
      `bedrock: profile "${profile}" uses ${kind}, which i does not support yet; run \`aws configure export-credentials --profile ${profile} --format env\` and export what it prints`,
    );
  }
  if (explicit && !creds && !config) {
    throw new UserError(
      `bedrock: AWS profile "${profile}" does not exist in ${credFile} or ${configFile}; check AWS_PROFILE or config.json bedrock.profile`,
    );
  }
  throw new UserError(
    `bedrock: no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE to a profile in ${credFile} (instance metadata and SSO are not supported)`,
  );
}
