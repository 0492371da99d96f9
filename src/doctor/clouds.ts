// `i doctor`, cloud part: for each cloud provider config.json sets up (or the target uses), its credentials
// as a run would find them — present, readable, the profile there, a service account's private key
// importable — and, where the credentials say when they end (an AWS session's expiration, an Entra ID
// token's exp), whether they still hold. Secrets are read, never shown.
import type { AzureConfig, BedrockConfig, VertexConfig } from "../contract/cloud-config.ts";
import type { ConfigFile, ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { azureTarget } from "../provider/azure/index.ts";
import { awsProfiles, resolveAwsCredentials } from "../provider/bedrock/aws-credentials.ts";
import { ENTRA_PREFIX } from "../provider/cloud-credentials.ts";
import { locateApiKey } from "../provider/credentials.ts";
import { resolveGoogleCredentials } from "../provider/vertex/google-credentials.ts";
import { importPrivateKey } from "../provider/vertex/jwt.ts";
import type { Row } from "./report.ts";

const CLOUDS = ["vertex", "bedrock", "azure"] as const;

const failed = (name: string, problem: string): Row => ({ name, status: "FAILED", detail: "", problem });

/** A time the credentials give, as a date; undefined when absent or not a date. */
function when(text: string | undefined): Date | undefined {
  if (!text) return undefined;
  const d = new Date(/^\d+$/.test(text) ? Number(text) * 1000 : text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

// Where the AWS tools that write session keys put their end: the CLI's export-credentials, aws-vault and
// the SDKs' own profile fields.
const AWS_EXPIRY_FIELDS = [
  "aws_expiration",
  "expiration",
  "aws_session_expiration",
  "x_security_token_expires",
];

function bedrockRow(env: NodeJS.ProcessEnv, cfg: BedrockConfig | undefined, now: number): Row {
  let c: ReturnType<typeof resolveAwsCredentials>;
  try {
    c = resolveAwsCredentials(env, cfg);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return failed("bedrock", err.message);
  }
  const profile = env.AWS_PROFILE?.trim() || cfg?.profile || "default";
  const fields = c.source === "AWS_ACCESS_KEY_ID" ? undefined : awsProfiles(env).get(profile);
  const ends = when(
    fields ? AWS_EXPIRY_FIELDS.map((k) => fields[k]).find(Boolean) : env.AWS_CREDENTIAL_EXPIRATION?.trim(),
  );
  if (ends && ends.getTime() <= now)
    return failed(
      "bedrock",
      `bedrock: the AWS session credentials from ${c.source} expired at ${ends.toISOString()}; get new ones (e.g. \`aws configure export-credentials --profile ${profile} --format env\`) and run again`,
    );
  const token = c.sessionToken ? ", with a session token" : "";
  const until = ends ? `, valid until ${ends.toISOString()}` : "";
  return { name: "bedrock", status: "ok", detail: `${c.source}, region ${c.region}${token}${until}` };
}

async function vertexRow(env: NodeJS.ProcessEnv, cfg: VertexConfig | undefined): Promise<Row> {
  let g: ReturnType<typeof resolveGoogleCredentials>;
  try {
    g = resolveGoogleCredentials(env, cfg);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return failed("vertex", err.message);
  }
  const where = `project ${g.project}, location ${g.location}`;
  if (g.key.type === "authorized_user")
    return { name: "vertex", status: "ok", detail: `${g.file}: gcloud user credentials; ${where}` };
  try {
    await importPrivateKey(g.key.private_key);
  } catch {
    return failed(
      "vertex",
      `vertex: ${g.file}: its private_key is not a usable RSA key; create a new JSON key for ${g.key.client_email} and point at it`,
    );
  }
  return {
    name: "vertex",
    status: "ok",
    detail: `${g.file}: service account ${g.key.client_email}; ${where}`,
  };
}

/** The `exp` of a JWT, or undefined when the token is not one. */
function jwtExpiry(token: string): Date | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" ? new Date(exp * 1000) : undefined;
  } catch {
    return undefined;
  }
}

function azureRow(dir: string, env: NodeJS.ProcessEnv, cfg: AzureConfig | undefined, now: number): Row {
  let t: ReturnType<typeof azureTarget>;
  let key: ReturnType<typeof locateApiKey>;
  try {
    t = azureTarget({}, env, cfg);
    if (!URL.canParse(t.endpoint))
      throw new UserError(
        `azure: the endpoint "${t.endpoint}" is not a URL; give one like https://NAME.openai.azure.com`,
      );
    key = locateApiKey("azure", dir, env);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return failed("azure", err.message);
  }
  const ends = key.key.startsWith(ENTRA_PREFIX) ? jwtExpiry(key.key.slice(ENTRA_PREFIX.length)) : undefined;
  if (ends && ends.getTime() <= now)
    return failed(
      "azure",
      `azure: the Entra ID token in ${key.source} expired at ${ends.toISOString()}; get a new one with \`az account get-access-token --resource https://cognitiveservices.azure.com\``,
    );
  const version = t.wire === "responses" ? "v1 API" : `api-version ${t.apiVersion}`;
  const deployment = t.deployment ? `deployment ${t.deployment}` : "deployment named after the model";
  return {
    name: "azure",
    status: "ok",
    detail: `${t.endpoint}, ${deployment}, ${version}, key from ${key.source}${ends ? `, token valid until ${ends.toISOString()}` : ""}`,
  };
}

/** One row per cloud provider that config.json sets up or the target uses; none when there is none. */
export async function cloudRows(
  config: ConfigFile,
  target: ProviderName | undefined,
  dir: string,
  env: NodeJS.ProcessEnv,
  now = Date.now(),
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const cloud of CLOUDS) {
    if (cloud !== target && config[cloud] === undefined) continue;
    if (cloud === "bedrock") rows.push(bedrockRow(env, config.bedrock, now));
    else if (cloud === "vertex") rows.push(await vertexRow(env, config.vertex));
    else rows.push(azureRow(dir, env, config.azure, now));
  }
  return rows;
}
