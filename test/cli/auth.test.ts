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
