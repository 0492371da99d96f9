// Google credentials found the standard way: GOOGLE_APPLICATION_CREDENTIALS (a service-account JSON key,
// or an authorized_user file; config.json `vertex.credentials_file` names one too), else gcloud's
// application-default credentials file (`gcloud auth application-default login`, under CLOUDSDK_CONFIG or
// ~/.config/gcloud). Project and
// location from the environment (GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION), config.json `vertex`, or
// the key's own project.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { VertexConfig } from "../../contract/cloud-config.ts";
import { UserError } from "../../contract/errors.ts";

export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

const ServiceAccount = z.object({
  type: z.literal("service_account"),
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().optional(),
  project_id: z.string().optional(),
});
const AuthorizedUser = z.object({
  type: z.literal("authorized_user"),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  refresh_token: z.string().min(1),
  quota_project_id: z.string().optional(),
  token_uri: z.string().url().optional(),
});
const KeyFile = z.discriminatedUnion("type", [ServiceAccount, AuthorizedUser]);
export type GoogleKeyFile = z.infer<typeof KeyFile>;

export interface GoogleCredentials {
  key: GoogleKeyFile;
  file: string;
  project: string;
  location: string;
}

/** gcloud's application-default credentials file (it may not exist). */
export function adcFile(env: NodeJS.ProcessEnv): string {
  const dir = env.CLOUDSDK_CONFIG || join(env.HOME || homedir(), ".config", "gcloud");
  return join(dir, "application_default_credentials.json");
}

/** A Google key file read and checked; `from` names where its path came from, for the error. */
export function readKey(file: string, from: string): GoogleKeyFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UserError(`vertex: ${from} ${file}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = KeyFile.safeParse(raw);
  if (!parsed.success) {
    const type = (raw as { type?: unknown } | null)?.type;
    throw new UserError(
      `vertex: ${from} ${file}: ${typeof type === "string" ? `credentials of type "${type}" are not supported` : "not a service-account key or authorized_user file"}; use a service-account JSON key or run \`gcloud auth application-default login\``,
    );
  }
  return parsed.data;
}

/** The credentials, project and location for Vertex AI, or a UserError saying what to set. */
export function resolveGoogleCredentials(env: NodeJS.ProcessEnv, cfg: VertexConfig = {}): GoogleCredentials {
  const fromEnv = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  const given = fromEnv || cfg.credentials_file;
  const from = fromEnv ? "GOOGLE_APPLICATION_CREDENTIALS" : "config.json vertex.credentials_file";
  let file: string;
  let key: GoogleKeyFile;
  if (given) {
    if (!existsSync(given)) throw new UserError(`vertex: ${from} names ${given}, which does not exist`);
    file = given;
    key = readKey(given, from);
  } else {
    file = adcFile(env);
    if (!existsSync(file)) {
      throw new UserError(
        "vertex: no Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service-account JSON key, or run `gcloud auth application-default login`",
      );
    }
    key = readKey(file, "application-default credentials");
  }
  const project =
    env.GOOGLE_CLOUD_PROJECT?.trim() ||
    env.GCLOUD_PROJECT?.trim() ||
    cfg.project ||
    (key.type === "service_account" ? key.project_id : key.quota_project_id);
  if (!project) {
    throw new UserError(
      `vertex: no Google Cloud project: set GOOGLE_CLOUD_PROJECT or "vertex": {"project": "ID"} in config.json`,
    );
  }
  const location = env.GOOGLE_CLOUD_LOCATION?.trim() || cfg.location || "us-central1";
  return { key, file, project, location };
}
