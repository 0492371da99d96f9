// Config files are read defensively: only regular files, never more than a cap, `null` and duplicate keys
// refused. A FIFO or /dev/zero must be answered at once (one line, exit 2), not hang or eat memory.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/contract/errors.ts";
import { findDuplicateKey } from "../../src/lib/duplicate-keys.ts";
import { MAX_CONFIG_BYTES, readConfigJson } from "../../src/lib/json-file.ts";
import { MAIN, removeDir, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

/** The CLI with its own dirs; a hang is killed after 10 s and shows up as a failed exit code. */
function cli(args: string[]): { code: number | null; stderr: string; stdout: string; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: dir,
    env: {
      ...process.env,
      HOME: dir,
      I_CONFIG_DIR: join(dir, "cfg"),
      I_DATA_DIR: join(dir, "data"),
      OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
    },
    encoding: "utf8",
    timeout: 10_000,
  });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout, ms: performance.now() - t0 };
}

function userError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error("expected a UserError");
}

describe("duplicate keys", () => {
  test("found at any depth, with the object's path", () => {
    expect(findDuplicateKey('{"a":1,"a":2}')).toEqual({ path: "(top level)", key: "a" });
    expect(findDuplicateKey('{"models":{"m":{"x":1}, "m" : {"x":2}}}')).toEqual({
      path: "models",
      key: "m",
    });
    expect(findDuplicateKey('{"l":[{"k":1},{"k":1,"k":2}]}')).toEqual({ path: "l[1]", key: "k" });
  }, 30_000);

  test("equal keys in different objects, escaped spellings and string values are fine or caught right", () => {
    expect(findDuplicateKey('{"a":{"k":1},"b":{"k":1},"c":"a","d":["a","a"]}')).toBeUndefined();
    expect(findDuplicateKey('{"a\\"b":1,"x":"\\\\","a\\u0022b":2}')).toEqual({
      path: "(top level)",
      key: 'a"b',
    });
  }, 30_000);
});

describe("readConfigJson", () => {
  test("null is an error, not an empty config", () => {
    writeFileSync(join(dir, "config.json"), "null\n");
    expect(userError(() => readConfigJson(join(dir, "config.json")))).toContain("config.json: is null");
  }, 30_000);

  test("a duplicate key is an error naming the key", () => {
    writeFileSync(join(dir, "config.json"), '{"model":"a","model":"b"}');
    const line = userError(() => readConfigJson(join(dir, "config.json")));
    expect(line).toContain('duplicate key "model"');
  }, 30_000);

  test("/dev/zero behind a symlink is refused at once, not read", () => {
    symlinkSync("/dev/zero", join(dir, "config.json"));
    const t0 = performance.now();
    const line = userError(() => readConfigJson(join(dir, "config.json")));
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(line).toContain("is a device, not a regular file");
  }, 30_000);

  test("a regular file over the cap is one line naming the file and the cap", () => {
    writeFileSync(join(dir, "config.json"), `{"$comment":"${"x".repeat(MAX_CONFIG_BYTES)}"}`);
    const line = userError(() => readConfigJson(join(dir, "config.json")));
    expect(line).toContain(join(dir, "config.json"));
    expect(line).toContain("larger than the 1.0 MiB limit");
  }, 30_000);

  test("a directory is refused", () => {
    mkdirSync(join(dir, "config.json"));
    expect(userError(() => readConfigJson(join(dir, "config.json")))).toContain("directory");
  }, 30_000);
});

describe("hostile config files through the CLI: one line, exit 2, no hang", () => {
  function fifo(path: string): void {
    mkdirSync(join(path, ".."), { recursive: true });
    expect(spawnSync("mkfifo", [path]).status).toBe(0);
  }

  test("a FIFO config.json: -p and doctor", () => {
    fifo(join(dir, "cfg", "config.json"));
    const line = `${join(dir, "cfg", "config.json")}: is a FIFO (named pipe), not a regular file; replace it with a regular file`;
    const run = cli(["-p", "hi", "-m", "gpt-4o"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([`i: ${line}`]);
    const doctor = cli(["doctor"]);
    expect(doctor.code).toBe(2);
    expect(doctor.stdout).toContain(`  ${line}\n`);
  }, 30_000);

  test("config.json and a compact prompt pointing at /dev/zero", () => {
    mkdirSync(join(dir, "cfg"));
    symlinkSync("/dev/zero", join(dir, "cfg", "config.json"));
    let r = cli(["-p", "hi", "-m", "gpt-4o"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("config.json: is a device");
    removeDir(join(dir, "cfg"));
    mkdirSync(join(dir, "cfg"));
    writeFileSync(join(dir, "cfg", "compact.json"), JSON.stringify({ prompt: "/dev/zero" }));
    const line = `${join(dir, "cfg", "compact.json")}: field prompt: /dev/zero: is a device, not a regular file; replace it with a regular file`;
    r = cli(["-p", "hi", "-m", "gpt-4o"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([`i: ${line}`]);
    r = cli(["doctor"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`  ${line}\n`);
  }, 30_000);

  test("null and duplicate keys in config.json", () => {
    mkdirSync(join(dir, "cfg"));
    writeFileSync(join(dir, "cfg", "config.json"), "null");
    expect(cli(["doctor"]).code).toBe(2);
    writeFileSync(join(dir, "cfg", "config.json"), '{"provider":"openai","provider":"anthropic"}');
    const r = cli(["-p", "hi", "-m", "gpt-4o"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('duplicate key "provider"');
  }, 30_000);
});
