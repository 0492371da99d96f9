// Every config rule of DESIGN §3 and seed 000: one clear line naming file, field and fix; exit 2.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, runCli, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

function write(name: string, content: unknown): void {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
}

function manifestErr(): { code: number; line: string } {
  const r = runCli(["--runtime", "manifest", "standard"], { I_CONFIG_DIR: dir });
  const lines = r.stderr.trim().split("\n");
  expect(lines.length).toBe(1);
  expect(r.stdout).toBe("");
  return { code: r.code, line: lines[0] ?? "" };
}

describe("bad config input", () => {
  test("unknown key in plugins.json", () => {
    write("plugins.json", { profile: "standard", colour: "blue" });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("plugins.json");
    expect(line).toContain('unknown key "colour"');
    expect(line).toContain("remove it");
  });

  test("unknown module in plugins.json disabled", () => {
    write("plugins.json", { disabled: ["compactor"] });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain('field disabled[0]: must be one of "budget", "prompts"');
    expect(line).not.toContain("use module names from");
  });

  test("unknown module in bindings.json", () => {
    write("bindings.json", { compactor: { exec: ["/bin/true"] } });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain('unknown module "compactor"');
    expect(line).toContain("bindable modules are");
  });

  test("relative executable in bindings.json", () => {
    write("bindings.json", { compact: { exec: ["./my-compactor"] } });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("compact.exec[0]");
    expect(line).toContain("not an absolute path");
  });

  test("relative cwd in bindings.json", () => {
    write("bindings.json", { compact: { exec: ["/bin/true"], cwd: "plugin" } });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("compact.cwd");
    expect(line).toContain("not an absolute path");
  });

  test("exec given as a shell string", () => {
    write("bindings.json", { compact: { exec: "/usr/bin/my-compactor --fast" } });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("compact.exec");
    expect(line).toContain("argv array");
    expect(line).toContain("not a shell string");
  });

  test("credential-looking argv is refused", () => {
    write("bindings.json", { compact: { exec: ["/bin/true", "sk-abcdefghijklmnopqrstuvwxyz123456"] } });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("compact.exec[1]");
    expect(line).toContain("credential");
    expect(line).not.toContain("sk-abcdefghijklmnop");
  });

  test("executable path in portable plugins.json", () => {
    write("plugins.json", { exec: ["/usr/bin/compactor"] });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("plugins.json");
    expect(line).toContain("bindings.json");
  });

  test("unknown profile in plugins.json", () => {
    write("plugins.json", { profile: "huge" });
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain('unknown profile "huge"');
    expect(line).toContain("standard");
  });

  test("malformed JSON", () => {
    write("bindings.json", "{ not json");
    const { code, line } = manifestErr();
    expect(code).toBe(2);
    expect(line).toContain("bindings.json: malformed JSON");
  });
});

describe("compact.json rules", () => {
  function doctorlessCheck(): { code: number; line: string } {
    const r = runCli(["--runtime", "manifest", "standard"], { I_CONFIG_DIR: dir });
    return { code: r.code, line: r.stderr.trim() };
  }
  // compact.json is validated wherever the whole config is loaded; check it through the loader directly.
  test("keep_recent outside 1..10000", async () => {
    const { loadCompactFile } = await import("../../workers/compact/policy.ts");
    for (const bad of [0, 10001, 2.5]) {
      write("compact.json", { keep_recent: bad });
      expect(() => loadCompactFile(dir)).toThrow(/compact\.json: field keep_recent/);
    }
    write("compact.json", { keep_recent: 10000 });
    expect(loadCompactFile(dir).keep_recent).toBe(10000);
    expect(doctorlessCheck().code).toBe(0);
  });

  test("prompt over 32000 characters", async () => {
    const { loadCompactFile } = await import("../../workers/compact/policy.ts");
    write("prompts/long.txt", "x".repeat(32001));
    write("compact.json", { prompt: "prompts/long.txt" });
    expect(() => loadCompactFile(dir)).toThrow(
      /field prompt: .* 32001 characters, over the 32000 limit; shorten it/,
    );
    write("prompts/long.txt", "x".repeat(32000));
    expect(loadCompactFile(dir).prompt).toBe("prompts/long.txt");
  });

  test("prompt over 32000 characters: a run stops at start with one line, exit 2; doctor shows that line", () => {
    write("prompts/long.txt", "y".repeat(32001));
    write("compact.json", { prompt: "prompts/long.txt" });
    const r = runCli(["-p", "hi", "-m", "gpt-4o"], {
      I_CONFIG_DIR: dir,
      OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("compact.json: field prompt:");
    expect(r.stderr).toContain("over the 32000 limit; shorten it");
    // doctor reports the same line on compact.json's row, and exits 2 as the run does
    const d = runCli(["doctor"], { I_CONFIG_DIR: dir });
    expect(d.code).toBe(2);
    expect(d.stdout).toContain(r.stderr.trim().replace(/^i: /, ""));
  });

  test("missing prompt file", async () => {
    const { loadCompactFile } = await import("../../workers/compact/policy.ts");
    write("compact.json", { prompt: "nope.txt" });
    expect(() => loadCompactFile(dir)).toThrow(/field prompt: cannot read .*nope\.txt/);
  });

  test("images must be keep, omit or describe; unknown keys refused", async () => {
    const { loadCompactFile } = await import("../../workers/compact/policy.ts");
    write("compact.json", { images: "blur" });
    expect(() => loadCompactFile(dir)).toThrow(/compact\.json: field images/);
    write("compact.json", { keep: 4 });
    expect(() => loadCompactFile(dir)).toThrow(/unknown key "keep"/);
  });

  test("budget.json rearm must be below trigger", async () => {
    const { loadBudgetFile } = await import("../../src/config/load.ts");
    write("budget.json", { trigger_ratio: 0.6, rearm_ratio: 0.7 });
    expect(() => loadBudgetFile(dir)).toThrow(/rearm_ratio: 0.7 must be below trigger_ratio 0.6/);
  });

  test("config.json unknown provider", async () => {
    const { loadConfigFile } = await import("../../src/config/load.ts");
    write("config.json", { provider: "watsonx" });
    expect(() => loadConfigFile(dir)).toThrow(/config\.json: field provider/);
  });

  test("config.json stream_idle_timeout_ms must be a whole number of ms between 1 s and 1 h", async () => {
    const { loadConfigFile } = await import("../../src/config/load.ts");
    for (const bad of [0, 500, 2.5, "300000", 7_200_000]) {
      write("config.json", { stream_idle_timeout_ms: bad });
      expect(() => loadConfigFile(dir)).toThrow(/config\.json: field stream_idle_timeout_ms/);
    }
    write("config.json", { stream_idle_timeout_ms: 30_000 });
    expect(loadConfigFile(dir).stream_idle_timeout_ms).toBe(30_000);
  });
});

describe("config files as people write them", () => {
  function runErr(): { code: number; line: string } {
    const r = runCli(["-p", "hi", "-m", "some-model"], { I_CONFIG_DIR: dir, I_DATA_DIR: join(dir, "data") });
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    return { code: r.code, line: lines[0] ?? "" };
  }

  test("a mistyped key is named with the key it is closest to", () => {
    write("config.json", { modls: {} });
    expect(runErr()).toEqual({
      code: 2,
      line: `i: ${join(dir, "config.json")}: unknown key "modls" in (top level); did you mean "models"? (unknown keys are errors)`,
    });
    write("config.json", { models: { "some-model": { context_window: 1000, max_output_tokns: 10 } } });
    expect(runErr().line).toContain('did you mean "max_output_tokens"?');
    write("config.json", { zzz: 1 });
    expect(runErr().line).toContain('unknown key "zzz" in (top level); remove it');
  });

  test("a missing field says missing, not 'received undefined'", () => {
    write("config.json", { models: { "some-model": { max_output_tokens: 10 } } });
    const { code, line } = runErr();
    expect(code).toBe(2);
    expect(line).toBe(
      `i: ${join(dir, "config.json")}: field models.some-model.context_window is missing; add it (a number)`,
    );
  });

  test("an empty file says empty; a UTF-8 byte-order mark (Notepad) is read as the JSON it marks", () => {
    write("config.json", "\n");
    expect(runErr()).toEqual({
      code: 2,
      line: `i: ${join(dir, "config.json")}: is empty; write an object such as {} or delete the file`,
    });
    write("config.json", `\uFEFF${JSON.stringify({ modls: {} })}`);
    // Parsed (the BOM is no syntax error): the error is the content's own.
    expect(runErr().line).toContain('unknown key "modls"');
  });
});
