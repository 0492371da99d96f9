// Removing one of our temporary directories never throws: a failure is one warning line naming the
// directory, and the caller's exit code is its own. (A directory that is a mount point cannot be removed.)
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDir } from "../../src/runtime/remove-temp.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const root = tempDir("i-remove-temp-");
afterAll(() => removeDir(root));

test("a directory and everything in it is removed, without a word", () => {
  const dir = join(root, "plain");
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "sub", "f"), "x");
  const said: string[] = [];
  removeTempDir(dir, (l) => said.push(l));
  expect(existsSync(dir)).toBe(false);
  expect(said).toEqual([]);
  removeTempDir(dir, (l) => said.push(l));
  expect(said).toEqual([]);
});

mkdirSync(join(root, "probe"));
const canMount =
  process.platform === "linux" &&
  process.getuid?.() === 0 &&
  spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "none", join(root, "probe")], { stdio: "ignore" })
    .status === 0;
if (canMount) spawnSync("umount", [join(root, "probe")]);

test.skipIf(!canMount)("a directory that cannot be removed: one warning line, no exception", () => {
  const dir = join(root, "busy");
  mkdirSync(dir);
  expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "none", dir]).status).toBe(0);
  try {
    writeFileSync(join(dir, "f"), "x");
    const said: string[] = [];
    expect(() => removeTempDir(dir, (l) => said.push(l))).not.toThrow();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      new RegExp(
        `^i: warning: could not remove the temporary directory ${dir} \\(E[A-Z]+\\); remove it by hand$`,
      ),
    );
  } finally {
    spawnSync("umount", [dir]);
  }
});
