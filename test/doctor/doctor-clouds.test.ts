// `i doctor` and the cloud providers: each one config.json sets up gets its credentials checked as a run
// finds them (a profile that is not there, session keys past their expiration, a service account whose
// private key cannot be used, an Entra ID token past its exp), each problem in one line and counted once;
// with --online the target gets one request through its own signing and URLs.
import { expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { homeEnv, useTempHome } from "../helpers/temp-home.ts";

const home = useTempHome("i-doctor-clouds-", { workspace: true });

const ID = { accessKeyId: "AKIDDOCTOR0001", secretAccessKey: "doctorSecret/0123456789EXAMPLE" };

function env(extra: Record<string, string> = {}): Record<string, string> {
  return homeEnv(home, {
    AWS_SHARED_CREDENTIALS_FILE: join(home.root, "aws-credentials"),
    AWS_CONFIG_FILE: join(home.root, "aws-config"),
    ...extra,
  });
}
const doctor = (args: string[], extra: Record<string, string> = {}) =>
  runCliAsync(["doctor", ...args], env(extra), home.ws);

function profile(extra = ""): void {
  writeFileSync(
    join(home.root, "aws-credentials"),
    `[work]\naws_access_key_id = ${ID.accessKeyId}\naws_secret_access_key = ${ID.secretAccessKey}\naws_session_token = tok\n${extra}`,
  );
}
const config = (value: unknown) => writeFileSync(join(home.cfg, "config.json"), JSON.stringify(value));
const BEDROCK = {
  provider: "bedrock",
  model: "us.amazon.nova-pro-v1:0",
  bedrock: { region: "us-west-2", profile: "work" },
};

test("bedrock: session keys past their expiration fail in one line (exit 1); keys still valid say until when", async () => {
  profile("aws_expiration = 2020-01-01T00:00:00Z\n");
  config(BEDROCK);
  const old = await doctor([]);
  expect(old.code).toBe(1);
  expect(old.stdout).toContain(
    `  bedrock: the AWS session credentials from ${join(home.root, "aws-credentials")} [work] expired at 2020-01-01T00:00:00.000Z; get new ones (e.g. \`aws configure export-credentials --profile work --format env\`) and run again\n`,
  );
  expect(old.stdout).not.toContain(ID.secretAccessKey);
  profile("aws_expiration = 2999-01-01T00:00:00Z\n");
  const fresh = await doctor([]);
  expect(fresh.stdout).toMatch(
    /bedrock\s+ok\s+.*\[work\], region us-west-2, with a session token, valid until 2999-01-01/,
  );
  expect(fresh.code).toBe(0);
});

test("bedrock: a profile that does not exist stops a run (exit 2), said once", async () => {
  profile();
  config({ ...BEDROCK, bedrock: { region: "us-west-2", profile: "gone" } });
  const r = await doctor([]);
  expect(r.code).toBe(2);
  const line = `bedrock: AWS profile "gone" does not exist in ${join(home.root, "aws-credentials")} or ${join(home.root, "aws-config")}; check AWS_PROFILE or config.json bedrock.profile`;
  expect(r.stdout.split(line)).toHaveLength(2);
  expect(r.stdout).toMatch(/bedrock\s+FAILED\s+the target's problem above/);
});

test("vertex set up beside another target: a private key that cannot be imported fails its row (exit 1); --online asks the Bedrock target, signed", async () => {
  profile();
  const sa = join(home.root, "sa.json");
  writeFileSync(
    sa,
    JSON.stringify({
      type: "service_account",
      private_key: "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n",
      client_email: "bot@proj.iam.gserviceaccount.com",
    }),
  );
  config({ ...BEDROCK, vertex: { project: "proj-123456", credentials_file: sa } });
  home.mock = await startMockServer({ script: [{ text: "OK" }], aws: { identity: ID, region: "us-west-2" } });
  const r = await doctor(["--online"], { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: home.mock.url });
  expect(r.stdout).toContain(
    `  vertex: ${sa}: its private_key is not a usable RSA key; create a new JSON key for bot@proj.iam.gserviceaccount.com and point at it\n`,
  );
  expect(r.stdout).toMatch(/endpoint\s+ok\s+us\.amazon\.nova-pro-v1:0 answered/);
  expect(home.mock.requests.at(-1)?.path).toBe("/model/us.amazon.nova-pro-v1%3A0/converse-stream");
  expect(r.code).toBe(1);
  // A good key: the row names the service account, project and location.
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(
    sa,
    JSON.stringify({
      type: "service_account",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: "bot@proj.iam.gserviceaccount.com",
    }),
  );
  const ok = await doctor([]);
  expect(ok.stdout).toMatch(
    /vertex\s+ok\s+.*sa\.json: service account bot@proj\.iam\.gserviceaccount\.com; project proj-123456, location us-central1/,
  );
  expect(ok.code).toBe(0);
});

const jwt = (exp: number) =>
  ['{"alg":"none"}', JSON.stringify({ exp })].map((p) => Buffer.from(p).toString("base64url")).join(".") +
  ".sig";

test("azure: an Entra ID token past its exp fails in one line; --online with a wrong deployment names it", async () => {
  home.mock = await startMockServer({ script: () => ({ text: "OK" }), deployments: ["team-gpt"] });
  config({ provider: "azure", model: "gpt-4o", azure: { endpoint: home.mock.url, deployment: "nope" } });
  const expired = await doctor([], { AZURE_OPENAI_AD_TOKEN: jwt(1_600_000_000) });
  expect(expired.stdout).toContain(
    "  azure: the Entra ID token in AZURE_OPENAI_AD_TOKEN expired at 2020-09-13T12:26:40.000Z; get a new one with `az account get-access-token --resource https://cognitiveservices.azure.com`\n",
  );
  expect(expired.code).toBe(1);
  const online = await doctor(["--online"], { AZURE_OPENAI_API_KEY: "azure-doctor-key" });
  expect(online.stdout).toMatch(
    /azure\s+ok\s+.*deployment nope, api-version 2024-10-21, key from AZURE_OPENAI_API_KEY/,
  );
  expect(online.stdout).toMatch(/endpoint\s+FAILED/);
  expect(online.stdout).toMatch(/azure.*deployment/i);
  expect(online.stdout).not.toContain("azure-doctor-key");
  expect(online.code).toBe(1);
});
