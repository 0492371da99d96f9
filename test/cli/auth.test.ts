// `i auth status` and `i auth logout` outside the console: where each key comes from (never the key
// itself), and forgetting one key while every other entry of auth.json stays, still mode 0600.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

function setUp(): { cfg: string; env: Record<string, string> } {
  root = tempDir("i-auth-");
  const cfg = join(root, "cfg");
  mkdirSync(cfg);
  writeFileSync(
    join(cfg, "auth.json"),
    JSON.stringify({ openai: "sk-open-1111", anthropic: "sk-ant-2222" }),
    {
      mode: 0o600,
    },
  );
  writeFileSync(
    join(cfg, "config.json"),
    JSON.stringify({ provider: "anthropic", model: "claude-sonnet-4-5" }),
  );
  const env = {
    I_CONFIG_DIR: cfg,
    I_DATA_DIR: join(root, "data"),
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    I_API_KEY: "",
  };
  return { cfg, env };
}

test("status names the model and where each key is found, never a key", async () => {
  const { cfg, env } = setUp();
  const r = await runCliAsync(["auth", "status"], env);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`model: claude-sonnet-4-5 (anthropic) from ${join(cfg, "config.json")}`);
  expect(r.stdout).toContain(`openai: key found in ${join(cfg, "auth.json")}`);
  expect(r.stdout).not.toContain("1111");
  expect(r.stdout).not.toContain("2222");
});

test("logout forgets the configured provider's key only; auth.json stays 0600", async () => {
  const { cfg, env } = setUp();
  const r = await runCliAsync(["auth", "logout"], env);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("removed the anthropic key");
  const file = join(cfg, "auth.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ openai: "sk-open-1111" });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const s = await runCliAsync(["auth", "status"], env);
  expect(s.stdout).toContain("anthropic: no key");
});

test("status shows each cloud's settings the setup saved (project, location, profile, region, endpoint, deployment), never a secret; logout for a keyless cloud removes nothing", async () => {
  const { cfg, env } = setUp();
  const sa = join(root ?? "", "sa.json");
  writeFileSync(
    sa,
    JSON.stringify({
      type: "service_account",
      private_key: "-----BEGIN PRIVATE KEY-----\nSECRETPEM\n-----END PRIVATE KEY-----\n",
      client_email: "a@b.iam.gserviceaccount.com",
    }),
  );
  const creds = join(root ?? "", "aws-credentials");
  writeFileSync(creds, "[work]\naws_access_key_id = AKIDSTATUS\naws_secret_access_key = awsSecret9999\n");
  writeFileSync(
    join(cfg, "config.json"),
    JSON.stringify({
      provider: "bedrock",
      model: "us.amazon.nova-pro-v1:0",
      vertex: { project: "proj-123456", location: "europe-west4", credentials_file: sa },
      bedrock: { region: "eu-west-1", profile: "work" },
      azure: { endpoint: "https://team.openai.azure.com", deployment: "team-gpt" },
    }),
  );
  const all = {
    ...env,
    HOME: root ?? "",
    AWS_SHARED_CREDENTIALS_FILE: creds,
    AWS_CONFIG_FILE: join(root ?? "", "none"),
    AZURE_OPENAI_API_KEY: "azureSecret7777",
  };
  const r = await runCliAsync(["auth", "status"], all);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    "azure: key found in AZURE_OPENAI_API_KEY; endpoint https://team.openai.azure.com, deployment team-gpt, api-version 2024-10-21\n",
  );
  expect(r.stdout).toContain(`bedrock: credentials found: ${creds} [work], region eu-west-1\n`);
  expect(r.stdout).toContain(
    `vertex: credentials found: ${sa}, project proj-123456, location europe-west4\n`,
  );
  for (const secret of ["SECRETPEM", "awsSecret9999", "azureSecret7777"])
    expect(r.stdout).not.toContain(secret);
  const out = await runCliAsync(["auth", "logout"], all);
  expect(out.code).toBe(0);
  expect(out.stdout).toBe(
    "bedrock signs with the cloud's own credentials; i stores no key for it (nothing removed)\n",
  );
  expect(JSON.parse(readFileSync(join(cfg, "auth.json"), "utf8"))).toEqual({
    openai: "sk-open-1111",
    anthropic: "sk-ant-2222",
  });
});
