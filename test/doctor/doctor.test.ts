// `i doctor` runs every check a run makes: whatever makes `i -p` exit 2 makes doctor exit 2 with the same
// line; absent files are said to be absent; each module is reported on its own; --online asks the endpoint.
import { describe, expect, test } from "bun:test";
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILES } from "../../src/contract/config-file-list.ts";
import { MODULE_NAMES } from "../../src/contract/registry.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import { type CliResult, removeDir, runCliAsync } from "../helpers/cli.ts";
import { homeEnv, useTempHome } from "../helpers/temp-home.ts";

const home = useTempHome("i-doctor-", { workspace: true });

const KEY = "sk-test-key-not-real-0000000000";
/** No key anywhere unless a test adds one: the machine's own variables must not leak in. */
const run = (args: string[], extra: Record<string, string> = {}) =>
  runCliAsync(args, homeEnv(home, extra), home.ws);
const write = (name: string, value: unknown) =>
  writeFileSync(join(home.cfg, name), typeof value === "string" ? value : JSON.stringify(value));

/** The run fails with one line and exit 2 before any request; doctor exits 2 and shows that line (without
 * the program name the run puts first on stderr). */
async function bothRefuse(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  const r = await run(["-p", "hi", ...args], extra);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("i: ");
  const d = await run(["doctor", ...args], extra);
  expect(d.code).toBe(2);
  expect(d.stdout).toContain(`  ${lines[0]?.slice("i: ".length)}\n`);
  return d;
}

describe("i doctor fails whenever a run would exit 2", () => {
  test("auth.json readable by others, directly or through a symlink", async () => {
    write("auth.json", { openai: KEY });
    chmodSync(join(home.cfg, "auth.json"), 0o644);
    let d = await bothRefuse(["-m", "gpt-4o"]);
    expect(d.stdout).toMatch(/^ {2}auth\.json +FAILED$/m);
    expect(d.stdout).toContain("mode 0644 lets other users read your API keys; run: chmod 600");
    removeDir(join(home.cfg, "auth.json"));
    writeFileSync(join(home.root, "real-auth.json"), JSON.stringify({ openai: KEY }), { mode: 0o644 });
    symlinkSync(join(home.root, "real-auth.json"), join(home.cfg, "auth.json"));
    d = await bothRefuse(["-m", "gpt-4o"]);
    expect(d.stdout).toContain("mode 0644");
  }, 30_000);

  test("auth.json malformed, with an unknown key, or with a duplicate key", async () => {
    for (const text of ["{oops", JSON.stringify({ opneai: KEY }), `{"openai":"${KEY}","openai":"x"}`]) {
      writeFileSync(join(home.cfg, "auth.json"), text, { mode: 0o600 });
      await bothRefuse(["-m", "gpt-4o"]);
    }
  }, 30_000);

  test("no key for the chosen provider; a good auth.json is ok and names its keys", async () => {
    const d = await bothRefuse(["-m", "claude-sonnet-4-5", "--provider", "anthropic"]);
    expect(d.stdout).toMatch(/^ {2}API key +FAILED$/m);
    writeFileSync(join(home.cfg, "auth.json"), JSON.stringify({ anthropic: KEY }), { mode: 0o600 });
    const ok = await run(["doctor", "-m", "claude-sonnet-4-5", "--provider", "anthropic"]);
    expect(ok.stdout).toMatch(/^ {2}auth\.json +ok +private \(mode 0600\); keys for: anthropic$/m);
    expect(ok.stdout).toMatch(new RegExp(`^ {2}API key +ok +from ${join(home.cfg, "auth.json")}$`, "m"));
    expect(ok.code).toBe(0);
  }, 30_000);

  test("unknown model, no model at all, reserve_tokens over the window", async () => {
    const extra = { OPENAI_API_KEY: KEY };
    let d = await bothRefuse(["-m", "no-such-model-xyz"], extra);
    expect(d.stdout).toMatch(/^ {2}model +FAILED$/m);
    d = await bothRefuse([], extra);
    expect(d.stdout).toContain("no model chosen");
    write("budget.json", { reserve_tokens: 128000 });
    d = await bothRefuse(["-m", "gpt-4o"], extra);
    expect(d.stdout).toMatch(/^ {2}reserve +FAILED$/m);
  }, 30_000);

  test("a bad web.json: one line at start, no session; doctor fails web alone, its neighbours ok", async () => {
    write("web.json", { timeout_ms: 5 });
    const args = ["-m", "gpt-4o", "--profile", "full"];
    const d = await bothRefuse(args, { OPENAI_API_KEY: KEY });
    expect(d.stdout).toMatch(/^ {2}web\.json +FAILED$/m);
    expect(d.stdout).toMatch(/^web +built-in +FAILED +- +- +i worker /m);
    for (const m of MODULE_NAMES.filter((x) => x !== "web"))
      expect(d.stdout).toMatch(new RegExp(`^${m} +built-in +ok +[\\d.]+ ms`, "m"));
    expect(d.stdout).toContain("1 of 15 modules FAILED");
    // counted once although both the file row and the module row show it
    expect(d.stdout.trimEnd().endsWith("1 problem a run would stop at (exit 2): fix the lines above")).toBe(
      true,
    );
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(home.root, "data"))).toBe(false);
  }, 30_000);

  test("a bad keybindings.json: the console refuses it in one line; doctor fails it and names the fix", async () => {
    write("keybindings.json", { submit: "ctrl+s", complete: "ctrl+s" });
    // Without -p the console starts (plain lines here: no terminal) and reads the file first.
    const r = await run(["-m", "gpt-4o"], { OPENAI_API_KEY: KEY });
    expect(r.code).toBe(2);
    const line = `${join(home.cfg, "keybindings.json")}: field complete: ctrl+s is bound to both submit and complete; give one of them another key`;
    expect(r.stderr).toBe(`i: ${line}\n`);
    const d = await run(["doctor", "-m", "gpt-4o"], { OPENAI_API_KEY: KEY });
    expect(d.code).toBe(2);
    expect(d.stdout).toMatch(/^ {2}keybindings\.json +FAILED$/m);
    expect(d.stdout).toContain(`  ${line}\n`);
  }, 30_000);

  test("--provider responses with a profile that has no responses module", async () => {
    const d = await bothRefuse(["-m", "gpt-4o", "--provider", "responses"], { OPENAI_API_KEY: KEY });
    expect(d.stdout).toMatch(/^ {2}wire +FAILED$/m);
  }, 30_000);

  test("a compact prompt that is not a regular file", async () => {
    write("compact.json", { prompt: "/dev/zero" });
    await bothRefuse(["-m", "gpt-4o"], { OPENAI_API_KEY: KEY });
  }, 30_000);

  test("a file where config_dir or the data directory should be; workers are not started", async () => {
    writeFileSync(join(home.root, "file"), "x");
    let d = await bothRefuse(["-m", "gpt-4o"], {
      OPENAI_API_KEY: KEY,
      I_CONFIG_DIR: join(home.root, "file"),
    });
    expect(d.stdout).toMatch(/^ {2}config_dir +FAILED$/m);
    expect(d.stdout).toContain("workers: not checked: the directories they need are not usable");
    d = await bothRefuse(["-m", "gpt-4o"], {
      OPENAI_API_KEY: KEY,
      I_DATA_DIR: join(home.root, "file", "data"),
    });
    expect(d.stdout).toMatch(/^ {2}data dir +FAILED$/m);
  }, 30_000);
});

describe("i doctor on a machine that never ran i", () => {
  test("reports absent files as absent, creates what workers need, and passes", async () => {
    removeDir(home.cfg);
    const d = await run(["doctor", "-m", "gpt-4o"], { OPENAI_API_KEY: KEY });
    expect(d.stderr).toBe("");
    expect(d.stdout).toContain(`config_dir ${home.cfg} (does not exist yet: \`i init\` creates it)`);
    for (const f of Object.keys(CONFIG_FILES))
      expect(d.stdout).toMatch(
        new RegExp(`^ {2}${f.replace(".", "\\.")} +- +not present, defaults used$`, "m"),
      );
    expect(d.stdout).not.toMatch(/ok \(config\.json/);
    expect(d.stdout).toContain("all 13 modules ok");
    expect(d.code).toBe(0);
  }, 30_000);
});

describe("i doctor --online", () => {
  test("one small request to the endpoint; a dead endpoint fails the check", async () => {
    home.mock = await startMockServer({ script: [{ text: "OK" }] });
    const ok = await run(["doctor", "--online", "-m", "home.mock-model", "--base-url", home.mock.url], {});
    write("config.json", { models: { "home.mock-model": { context_window: 32000 } } });
    const d = await run(["doctor", "--online", "-m", "home.mock-model", "--base-url", home.mock.url]);
    expect(ok.code).toBe(2); // before config.json: the model is unknown
    expect(d.stdout).toMatch(/^ {2}endpoint +ok +home.mock-model answered in \d+ ms \(stop: end\)$/m);
    expect(d.code).toBe(0);
    expect(home.mock.requests).toHaveLength(1);
    const url = home.mock.url;
    await home.mock.close();
    home.mock = undefined;
    const dead = await run(["doctor", "--online", "-m", "home.mock-model", "--base-url", url]);
    expect(dead.stdout).toMatch(/^ {2}endpoint +FAILED$/m);
    expect(dead.stdout).toMatch(/^ {2}endpoint: /m);
    expect(dead.code).toBe(1);
  }, 30_000);
});
