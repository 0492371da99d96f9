// Optional text files (templates, skills, project instructions, .gitignore) are read only when they are
// regular files and within a bound: a FIFO or a device answers at once with one line naming the file.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadIgnore } from "../../src/lib/gitignore.ts";
import { readBoundedText, readOptionalText } from "../../src/lib/text-files.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("i-text-files-");
});
afterEach(() => removeDir(dir));

describe("readOptionalText", () => {
  test("a missing file (or a missing parent) is undefined; a regular file is its text", () => {
    expect(readOptionalText(join(dir, "nope.md"))).toBeUndefined();
    expect(readOptionalText(join(dir, "nope", "x.md"))).toBeUndefined();
    writeFileSync(join(dir, "a.md"), "héllo\n");
    expect(readOptionalText(join(dir, "a.md"))).toBe("héllo\n");
  });

  test("a FIFO, a device and a directory are refused with one line naming the file", () => {
    const fifo = join(dir, "fifo.md");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(() => readOptionalText(fifo)).toThrow(`${fifo}: is a FIFO (named pipe), not a regular file`);
    symlinkSync("/dev/zero", join(dir, "zero.md"));
    expect(() => readOptionalText(join(dir, "zero.md"))).toThrow("is a device, not a regular file");
    mkdirSync(join(dir, "d.md"));
    expect(() => readOptionalText(join(dir, "d.md"))).toThrow("is a directory");
  });

  test("over the byte bound is refused; readBoundedText counts characters", () => {
    writeFileSync(join(dir, "big.md"), "x".repeat(101));
    expect(() => readOptionalText(join(dir, "big.md"), 100)).toThrow("larger than the 100 B limit");
    expect(() => readBoundedText(join(dir, "big.md"), 100)).toThrow("101 characters, over the 100 limit");
    writeFileSync(join(dir, "wide.md"), "é".repeat(100));
    expect(readBoundedText(join(dir, "wide.md"), 100)).toBe("é".repeat(100));
  });
});

test("a FIFO .gitignore does not stall searches: no rules from it, the fixed skips still apply", () => {
  expect(spawnSync("mkfifo", [join(dir, ".gitignore")]).status).toBe(0);
  const ignored = loadIgnore(dir);
  expect(ignored("node_modules", true)).toBe(true);
  expect(ignored("src/a.ts", false)).toBe(false);
});
