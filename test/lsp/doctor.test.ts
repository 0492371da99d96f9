// `i doctor` has a row per language server found: version, start, round trip; a configured one that
// fails is a failed check, a built-in one only said.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";
import { FAKE, PATH_WITH_SERVERS, TS_CONFIG } from "./rig.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

function setup(servers: Record<string, unknown>): { env: Record<string, string>; ws: string } {
  dir = tempDir("i-lsp-doctor-");
  const cfg = join(dir, "cfg");
  const ws = join(dir, "ws");
  mkdirSync(cfg, { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(cfg, "lsp.json"), JSON.stringify({ servers }));
  return {
    env: { I_CONFIG_DIR: cfg, I_DATA_DIR: join(dir, "data"), OPENAI_API_KEY: "x", PATH: PATH_WITH_SERVERS },
    ws,
  };
}

test("a row per server found; a configured server that fails is a failed check", async () => {
  const { env, ws } = setup({
    ...TS_CONFIG.servers,
    fake: { command: process.execPath, args: [FAKE, "ok"], extensions: [".fk"] },
    broken: { command: process.execPath, args: [FAKE, "crash"], extensions: [".br"] },
    absent: { command: "no-such-language-server", extensions: [".ab"] },
  });
  const r = await runCliAsync(["doctor", "-m", "gpt-4o", "--workspace", ws], env);
  expect(r.stderr).toBe("");
  expect(r.stdout).toMatch(
    /^typescript +ok +5\.\d+\.\d+ +[\d.]+ ms +[\d.]+ ms +\S+typescript-language-server --stdio$/m,
  );
  expect(r.stdout).toMatch(/^fake +ok +fake 0\.1 +[\d.]+ ms +[\d.]+ ms /m);
  expect(r.stdout).toMatch(/^broken +FAILED +- +- +- /m);
  expect(r.stdout).toContain("broken: exited (code 3) before answering");
  expect(r.stdout).toContain(
    `absent: command "no-such-language-server" (${join(dir as string, "cfg", "lsp.json")}) was not found on PATH`,
  );
  expect(r.stdout).toContain("2 checks FAILED");
  expect(r.code).toBe(1);
}, 60_000);
