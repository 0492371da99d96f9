// The setup's questions for Vertex AI: where the Google credentials are (the environment's key file,
// gcloud's application-default credentials, or a service-account key by path), the project and the
// location. A key file is read and checked as a run reads it; only its path is kept.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { VertexConfig } from "../../contract/cloud-config.ts";
import { UserError } from "../../contract/errors.ts";
import { adcFile, type GoogleKeyFile, readKey } from "../../provider/vertex/google-credentials.ts";
import { importPrivateKey } from "../../provider/vertex/jwt.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { type AskIo, ask, askValid, chooseOption, shown } from "./ask.ts";

/** A user's answer that names a file: ~ expanded, made absolute (config.json is read from anywhere). */
function expandPath(answer: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return resolve(answer === "~" ? home : answer.replace(/^~(?=\/)/, home));
}

/** A key file read as a run reads it, and a service account's private key imported as it will be signed with. */
async function usableKey(file: string, from: string): Promise<GoogleKeyFile> {
  const key = readKey(file, from);
  if (key.type === "service_account")
    await importPrivateKey(key.private_key).catch(() => {
      throw new UserError(
        `${file}: its private_key is not a usable RSA key; create a new JSON key for the service account`,
      );
    });
  return key;
}

/** A key file's path, asked until the file exists and is a Google key. */
async function askKeyPath(
  io: AskIo,
  env: NodeJS.ProcessEnv,
  prev: string | undefined,
): Promise<{ key: GoogleKeyFile; file: string }> {
  for (;;) {
    const answer = await ask(io, "Path of the service-account JSON key", prev);
    const file = expandPath(answer, env);
    try {
      if (answer === "")
        throw new UserError("give the path of the JSON key downloaded from the Google Cloud console");
      if (!existsSync(file))
        throw new UserError(`${file} does not exist; give the path of the service-account JSON key file`);
      return { key: await usableKey(file, "the key file"), file };
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      io.write(`${sanitize(err.message.replace(/^vertex: /, ""))}\n`);
    }
  }
}

/** The Google key file: the environment's, gcloud's application-default one, or a path typed here. */
async function askGoogleKey(
  io: AskIo,
  env: NodeJS.ProcessEnv,
  prev: VertexConfig,
): Promise<{ key: GoogleKeyFile; file?: string }> {
  const fromEnv = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  const adc = adcFile(env);
  const options: { label: string; file?: string; from: string }[] = [];
  if (fromEnv)
    options.push({ label: `the key in GOOGLE_APPLICATION_CREDENTIALS (${sanitize(fromEnv)})`, from: "env" });
  if (existsSync(adc))
    options.push({ label: `gcloud's application-default credentials (${sanitize(adc)})`, from: "adc" });
  options.push({ label: "a service-account JSON key file: type its path", from: "path" });
  for (;;) {
    const at = prev.credentials_file ? options.length - 1 : 0;
    const pick = await chooseOption(io, "Which Google credentials?", options, at);
    try {
      if (pick.from === "env" && fromEnv) {
        if (!existsSync(fromEnv))
          throw new UserError(`GOOGLE_APPLICATION_CREDENTIALS names ${fromEnv}, which does not exist`);
        return { key: await usableKey(fromEnv, "GOOGLE_APPLICATION_CREDENTIALS") };
      }
      if (pick.from === "adc") return { key: readKey(adc, "application-default credentials") };
      const found = await askKeyPath(io, env, prev.credentials_file);
      if (fromEnv)
        io.write("note: GOOGLE_APPLICATION_CREDENTIALS is set and is read before this file; unset it\n");
      return found;
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      io.write(`${sanitize(err.message.replace(/^vertex: /, ""))}\n`);
    }
  }
}

const PROJECT_ID = /^([a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

export async function askVertex(
  io: AskIo,
  env: NodeJS.ProcessEnv,
  prev: VertexConfig,
): Promise<VertexConfig> {
  const { key, file } = await askGoogleKey(io, env, prev);
  io.write(
    key.type === "service_account"
      ? `service account ${sanitize(key.client_email)}\n`
      : "gcloud user credentials (a refresh token)\n",
  );
  const ownProject = key.type === "service_account" ? key.project_id : key.quota_project_id;
  const project = await askValid(
    io,
    "Google Cloud project ID",
    env.GOOGLE_CLOUD_PROJECT?.trim() || prev.project || ownProject,
    (a) =>
      PROJECT_ID.test(a)
        ? undefined
        : `${shown(a)} is not a project ID: 6 to 30 lowercase letters, digits and hyphens, like my-project-123`,
  );
  const location = await askValid(
    io,
    "Location (a region like us-central1 or us-east5, or global)",
    env.GOOGLE_CLOUD_LOCATION?.trim() || prev.location || "us-central1",
    (a) =>
      /^(global|[a-z]+-[a-z]+\d+)$/.test(a)
        ? undefined
        : `${shown(a)} is not a Vertex AI location; give one like us-central1, europe-west4 or global`,
  );
  return { project, location, ...(file ? { credentials_file: file } : {}) };
}
