// The command surface: version, help, unknown flags, init, stubs that say so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { removeDir, runCli, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

describe("cli", () => {
  test("--version", () => {
    const r = runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`i ${pkg.version}\n`);
  });

  test("--help lists the commands", () => {
    const r = runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["init", "worker", "doctor", "compact", "sessions", "start", "--runtime manifest"]) {
      expect(r.stdout).toContain(c);
    }
  });

  test("--help into a pipe carries no colour, whatever CI/NO_COLOR say", () => {
    for (const args of [["--help"], ["doctor", "--help"]]) {
      const r = runCli(args, { CI: "", TEST: "", NO_COLOR: "", TERM: "xterm-256color" });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("USAGE");
      expect(r.stdout).not.toContain("\u001b[");
    }
  });

  test("subcommand --help", () => {
    const r = runCli(["compact", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("--instructions");
  });

  test("unknown flag: one line, exit 2", () => {
    const r = runCli(["--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("i: unknown flag --frobnicate; see `i --help`\n");
  });

  test("flag without value: one line, exit 2", () => {
    const r = runCli(["-p", "hi", "--model"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("i: flag --model needs a value; see `i --help`\n");
  });

  test("bad enum value", () => {
    const r = runCli(["-p", "hi", "--approve", "sometimes"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("--approve");
  });

  test("init creates defaults and never overwrites", () => {
    const cfg = join(dir, "cfg");
    const first = runCli(["init"], { I_CONFIG_DIR: cfg });
    expect(first.code).toBe(0);
    for (const f of [
      "config.json",
      "plugins.json",
      "bindings.json",
      "compact.json",
      "budget.json",
      "prompts/compact.txt",
      "desktop.json",
    ]) {
      expect(existsSync(join(cfg, f))).toBe(true);
      expect(first.stdout).toContain(`created ${join(cfg, f)}`);
    }
    writeFileSync(join(cfg, "bindings.json"), '{"compact":{"exec":["/x/mine"]}}');
    const second = runCli(["init"], { I_CONFIG_DIR: cfg });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`kept    ${join(cfg, "bindings.json")} (exists)`);
    expect(readFileSync(join(cfg, "bindings.json"), "utf8")).toBe('{"compact":{"exec":["/x/mine"]}}');
    // the written defaults are themselves valid
    const m = runCli(["--runtime", "manifest"], { I_CONFIG_DIR: cfg });
    expect(m.code).toBe(0);
  });
});
