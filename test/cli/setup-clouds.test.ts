// The setup's cloud questions, answered in-process: Vertex AI (a service-account key by path, project,
// location), Amazon Bedrock (a profile of the AWS files, region) and Azure OpenAI (endpoint, version,
// key, deployment) each end in the config.json and auth.json a run reads — the secret never copied into
// config.json — and a bad answer (a key file that is not there, a profile that does not exist or cannot
// be used, a deployment the resource lacks) gets one line and the question again.
import { expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AskIo } from "../../src/cli/setup/ask.ts";
import { runSetup } from "../../src/cli/setup/first-run.ts";
import { setupReason } from "../../src/cli/setup/needs-setup.ts";
import { bedrockGeography, modelsFor } from "../../src/cli/setup/setup-providers.ts";
import { testRequest } from "../../src/cli/setup/test-request.ts";
import { lookupModel } from "../../src/provider/models.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import type { MockAwsIdentity } from "../fixtures/mock-server/sigv4-check.ts";
import { useTempHome } from "../helpers/temp-home.ts";

const home = useTempHome("i-setup-clouds-");

/** The number shown before the option whose label starts with `label` (in the last menu printed). */
function numberOf(out: string, label: string): string {
  const lines = out.split("\n").reverse();
  const line = lines.find((l) =>
    new RegExp(`^\\s+\\d+\\s+${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).test(l),
  );
  return /^\s+(\d+)/.exec(line ?? "")?.[1] ?? "?";
}

/** Answers that depend on what the setup shows: a function reads the output so far. */
function interactive(steps: (string | ((out: string) => string))[]): AskIo & { out: () => string } {
  let out = "";
  const queue = [...steps];
  return {
    out: () => out,
    write: (t) => {
      out += t;
    },
    readLine: async () => {
      const s = queue.shift();
      if (s === undefined) throw new Error(`no answer left; the setup printed:\n${out}`);
      return typeof s === "function" ? s(out) : s;
    },
  };
}
const pick = (label: string) => (out: string) => numberOf(out, label);

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const baseEnv = () => ({ HOME: home.root, PATH: process.env.PATH ?? "/bin" });

test("every model the setup lists for a provider is in the model table", () => {
  for (const choice of ["openai", "anthropic", "gemini", "vertex", "bedrock", "azure", "openrouter"] as const)
    for (const name of modelsFor(choice, "us-east-1"))
      expect([choice, name, lookupModel(name) !== undefined]).toEqual([choice, name, true]);
  expect(modelsFor("bedrock", "eu-west-1")[0]).toStartWith("eu.anthropic.claude-");
  expect(modelsFor("vertex")).toContain("claude-sonnet-4-5@20250929");
  expect(["ap-northeast-1", "us-gov-west-1", "ca-central-1"].map(bedrockGeography)).toEqual([
    "apac.",
    "us-gov.",
    "",
  ]);
});

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

test("vertex: a missing key file is said in one line and asked again; the path, project and location are saved, the key is not", async () => {
  const keyFile = join(home.root, "sa.json");
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: "service_account",
      project_id: "sa-project-1",
      private_key: PRIVATE,
      client_email: "setup@sa-project-1.iam.gserviceaccount.com",
    }),
  );
  const badKey = join(home.root, "bad-key.json");
  writeFileSync(
    badKey,
    JSON.stringify({
      type: "service_account",
      private_key: "not a key",
      client_email: "x@y.iam.gserviceaccount.com",
    }),
  );
  const io = interactive([
    pick("Vertex AI"),
    pick("a service-account JSON key file"),
    join(home.root, "missing.json"),
    badKey,
    keyFile,
    "", // the key's own project
    "europe-west4",
    pick("gemini-2.5-pro"),
    "n",
  ]);
  const written = await runSetup(io, home.cfg, baseEnv());
  const out = io.out();
  expect(out).toContain(
    `${join(home.root, "missing.json")} does not exist; give the path of the service-account JSON key file\n`,
  );
  expect(out).toContain(
    `${badKey}: its private_key is not a usable RSA key; create a new JSON key for the service account\n`,
  );
  expect(out).toContain("service account setup@sa-project-1.iam.gserviceaccount.com");
  expect(out).toContain("Google Cloud project ID [sa-project-1]");
  expect(written).toEqual([join(home.cfg, "config.json")]);
  expect(existsSync(join(home.cfg, "auth.json"))).toBe(false);
  const config = readJson(join(home.cfg, "config.json"));
  expect(config).toEqual({
    provider: "vertex",
    model: "gemini-2.5-pro",
    vertex: { project: "sa-project-1", location: "europe-west4", credentials_file: keyFile },
  });
  expect(readFileSync(join(home.cfg, "config.json"), "utf8")).not.toContain("PRIVATE KEY");
});

test("vertex: gcloud's application-default credentials are offered when found; a file that is not a key is refused", async () => {
  const gcloud = join(home.root, ".config", "gcloud");
  mkdirSync(gcloud, { recursive: true });
  writeFileSync(
    join(gcloud, "application_default_credentials.json"),
    JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "r" }),
  );
  writeFileSync(join(home.root, "not-a-key.json"), JSON.stringify({ type: "external_account" }));
  const io = interactive([
    pick("Vertex AI"),
    pick("a service-account JSON key file"),
    join(home.root, "not-a-key.json"),
    // no way back from the path question but a good path; the ADC option is checked in a second setup
    join(gcloud, "application_default_credentials.json"),
    "bad project!",
    "my-project-7",
    "",
    pick("claude-sonnet-4-5@20250929"),
    "n",
  ]);
  await runSetup(io, home.cfg, baseEnv());
  expect(io.out()).toContain("gcloud's application-default credentials (");
  expect(io.out()).toContain('credentials of type "external_account" are not supported');
  expect(io.out()).toContain('"bad project!" is not a project ID');
  expect(readJson(join(home.cfg, "config.json")).vertex).toEqual({
    project: "my-project-7",
    location: "us-central1",
    credentials_file: join(gcloud, "application_default_credentials.json"),
  });
  // Chosen as gcloud's own file, no path is kept: the run finds it where gcloud puts it.
  const again = interactive([pick("Vertex AI"), pick("gcloud's"), "my-project-7", "global", "1", "n"]);
  await runSetup(again, home.cfg, baseEnv());
  expect(readJson(join(home.cfg, "config.json")).vertex).toEqual({
    project: "my-project-7",
    location: "global",
  });
});

const ID: MockAwsIdentity = {
  accessKeyId: "AKIDSETUPTEST0001",
  secretAccessKey: "setupSecretKey/0123456789abcdefEXAMPLE",
};

function awsFiles(): { AWS_SHARED_CREDENTIALS_FILE: string; AWS_CONFIG_FILE: string } {
  const creds = join(home.root, "aws-credentials");
  const config = join(home.root, "aws-config");
  writeFileSync(
    creds,
    `[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = defaultsecret\n\n[work]\naws_access_key_id = ${ID.accessKeyId}\naws_secret_access_key = ${ID.secretAccessKey}\n`,
  );
  writeFileSync(
    config,
    "[profile work]\nregion = eu-west-1\n\n[profile corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n",
  );
  return { AWS_SHARED_CREDENTIALS_FILE: creds, AWS_CONFIG_FILE: config };
}

test("bedrock: the profiles found are listed; an unknown or SSO profile gets one line and the question again; region and profile saved, no secret; the test request is signed", async () => {
  home.mock = await startMockServer({ script: [{ text: "ok" }], aws: { identity: ID, region: "eu-west-1" } });
  const env = { ...baseEnv(), ...awsFiles(), AWS_ENDPOINT_URL_BEDROCK_RUNTIME: home.mock.url };
  const io = interactive([
    pick("Amazon Bedrock"),
    pick("another profile"),
    "nope",
    pick("profile corp"),
    pick("profile work"),
    "", // the profile's region
    pick("eu.amazon.nova-pro-v1:0"),
    "y",
  ]);
  await runSetup(io, home.cfg, env);
  const out = io.out();
  for (const p of ["default", "work", "corp"]) expect(out).toContain(`profile ${p}\n`);
  expect(out).toContain(
    `AWS profile "nope" is not in ${env.AWS_SHARED_CREDENTIALS_FILE} or ${env.AWS_CONFIG_FILE} (profiles there: `,
  );
  expect(out).toContain('profile "corp" uses SSO, which i does not support yet');
  expect(out).toContain("AWS region [eu-west-1]");
  expect(out).toContain("eu.amazon.nova-pro-v1:0 answered.");
  expect(home.mock.requests.at(-1)?.path).toBe("/model/eu.amazon.nova-pro-v1%3A0/converse-stream");
  const text = readFileSync(join(home.cfg, "config.json"), "utf8");
  expect(JSON.parse(text)).toEqual({
    provider: "bedrock",
    model: "eu.amazon.nova-pro-v1:0",
    bedrock: { region: "eu-west-1", profile: "work" },
  });
  expect(text).not.toContain(ID.secretAccessKey);
  expect(existsSync(join(home.cfg, "auth.json"))).toBe(false);
});

test("bedrock: the environment's keys are offered first and no profile is saved; a bad region is asked again", async () => {
  const env = {
    ...baseEnv(),
    ...awsFiles(),
    AWS_ACCESS_KEY_ID: "AKIDENV",
    AWS_SECRET_ACCESS_KEY: "envsecret",
  };
  const io = interactive([pick("Amazon Bedrock"), "1", "mars", "us-west-2", "1", "n"]);
  await runSetup(io, home.cfg, env);
  expect(io.out()).toContain("1  the keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (environment)");
  expect(io.out()).toContain('"mars" is not an AWS region; give one like us-east-1');
  const config = readJson(join(home.cfg, "config.json"));
  expect(config.bedrock).toEqual({ region: "us-west-2" });
  expect(config.model).toStartWith("us.anthropic.");
});

test("azure: endpoint, version, key and deployment; a deployment the resource lacks fails the test request and is asked again", async () => {
  home.mock = await startMockServer({ script: () => ({ text: "ok" }), deployments: ["team-gpt"] });
  const KEY = "azure-key-0123456789abcdef";
  const io = interactive([
    pick("Azure OpenAI"),
    "not a url",
    home.mock.url,
    "", // the default API version
    KEY,
    pick("gpt-4o "),
    "", // deployment named after the model: the resource has none
    "y",
    pick("the model"),
    pick("gpt-4o "),
    "team-gpt",
    "y",
  ]);
  await runSetup(io, home.cfg, baseEnv());
  const out = io.out();
  expect(out).toContain('"not a url" is not an https:// URL');
  expect(out).toContain("API version [2024-10-21]");
  expect(out).toContain("Deployment name (as in Azure AI Foundry) [gpt-4o]");
  expect(out).toMatch(/the test request failed: .*deployment/i);
  expect(out).toContain("gpt-4o answered.");
  expect(out).not.toContain(KEY);
  expect(home.mock.requests.at(-1)?.headers["api-key"]).toBe(KEY);
  const auth = join(home.cfg, "auth.json");
  expect(readJson(auth)).toEqual({ azure: KEY });
  expect(statSync(auth).mode & 0o777).toBe(0o600);
  const text = readFileSync(join(home.cfg, "config.json"), "utf8");
  expect(JSON.parse(text)).toEqual({
    provider: "azure",
    model: "gpt-4o",
    azure: { endpoint: home.mock.url, api_version: "2024-10-21", deployment: "team-gpt" },
  });
  expect(text).not.toContain(KEY);
});

test("azure: with AZURE_OPENAI_API_KEY set, Enter keeps it and auth.json is not written; other azure settings stay", async () => {
  writeFileSync(
    join(home.cfg, "config.json"),
    JSON.stringify({ azure: { wire: "chat", deployment: "old" } }),
  );
  const env = { ...baseEnv(), AZURE_OPENAI_API_KEY: "from-env-key" };
  const io = interactive([
    pick("Azure OpenAI"),
    "https://team.openai.azure.com/",
    "2025-04-01-preview",
    "",
    "1",
    "",
    "n",
  ]);
  await runSetup(io, home.cfg, env);
  expect(io.out()).toContain("Enter keeps the one in AZURE_OPENAI_API_KEY");
  expect(existsSync(join(home.cfg, "auth.json"))).toBe(false);
  expect(readJson(join(home.cfg, "config.json")).azure).toEqual({
    wire: "chat",
    endpoint: "https://team.openai.azure.com",
    api_version: "2025-04-01-preview",
    deployment: "old",
  });
});

test("gemini and openrouter keys go to their own auth.json slots", async () => {
  await runSetup(
    interactive([pick("Google Gemini"), "gm-key-123", pick("gemini-2.5-flash "), "n"]),
    home.cfg,
    baseEnv(),
  );
  await runSetup(
    interactive([pick("OpenRouter"), "or-key-456", pick("anthropic/claude-sonnet-4.5"), "n"]),
    home.cfg,
    baseEnv(),
  );
  expect(readJson(join(home.cfg, "auth.json"))).toEqual({ gemini: "gm-key-123", openrouter: "or-key-456" });
  expect(readJson(join(home.cfg, "config.json"))).toEqual({
    provider: "openrouter",
    model: "anthropic/claude-sonnet-4.5",
  });
});

test("the vertex test request signs in with the saved key file and asks the chosen project and location", async () => {
  const { publicKey, privateKey: pk } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  home.mock = await startMockServer({
    script: [{ text: "ok" }],
    google: {
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
      clientEmail: "t@p.iam.gserviceaccount.com",
    },
  });
  const keyFile = join(home.root, "sa.json");
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: "service_account",
      private_key: pk.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: "t@p.iam.gserviceaccount.com",
      token_uri: `${home.mock.url}/token`,
    }),
  );
  const vertex = { project: "proj-1234", location: "us-east5", credentials_file: keyFile };
  const why = await testRequest(
    { provider: "vertex", model: "gemini-2.5-flash", baseUrl: home.mock.url },
    baseEnv(),
    { vertex },
  );
  expect(why).toBeUndefined();
  expect(home.mock.requests.at(-1)?.path).toStartWith(
    "/v1/projects/proj-1234/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent",
  );
});

test("a chosen model without a key is a reason to set up; a cloud without credentials is not (its own tools make them)", () => {
  writeFileSync(
    join(home.cfg, "config.json"),
    JSON.stringify({ provider: "gemini", model: "gemini-2.5-pro" }),
  );
  const env = { ...baseEnv(), I_CONFIG_DIR: home.cfg, GEMINI_API_KEY: "", GOOGLE_API_KEY: "", I_API_KEY: "" };
  expect(setupReason({}, env)).toStartWith('not logged in: no API key for provider "gemini"');
  writeFileSync(
    join(home.cfg, "config.json"),
    JSON.stringify({ provider: "bedrock", model: "us.amazon.nova-pro-v1:0" }),
  );
  expect(
    setupReason({}, { ...env, AWS_REGION: "us-east-1", AWS_CONFIG_FILE: join(home.root, "none") }),
  ).toBeUndefined();
});

test("after a failed test request, another provider leaves nothing of the first one's settings", async () => {
  home.mock = await startMockServer({ script: () => ({ text: "ok" }), deployments: [] });
  const io = interactive([
    pick("Azure OpenAI"),
    home.mock.url,
    "",
    "azure-key-1",
    pick("gpt-4o "),
    "",
    "y",
    pick("the provider or its settings"),
    pick("An OpenAI-compatible server"),
    home.mock.url,
    "",
    pick("llama3.3 "),
    "y",
  ]);
  await runSetup(io, home.cfg, baseEnv());
  expect(io.out()).toContain("llama3.3 answered.");
  expect(readJson(join(home.cfg, "config.json"))).toEqual({
    provider: "openai",
    model: "llama3.3",
    base_url: home.mock.url,
  });
  expect(existsSync(join(home.cfg, "auth.json"))).toBe(false);
});
