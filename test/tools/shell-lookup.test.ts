// The bash tool's shell lookup: on Windows, PATH entries are tried with each PATHEXT extension (Git
// Bash's bash.exe is found as cmd.exe would find it), Windows' own WSL launcher is skipped, and Git for
// Windows' default install folders are tried when PATH lists none. Simulated here with real files.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { locateShell } from "../../src/tools/bash.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const root = tempDir("i-shell-lookup-");
afterAll(() => removeDir(root));

function program(...parts: string[]): string {
  const p = join(root, ...parts);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, "");
  chmodSync(p, 0o755);
  return p;
}

test("windows: bash.exe on PATH is found through PATHEXT; bash without an extension would be missed", () => {
  const bin = join(root, "a", "Git", "bin");
  const exe = program("a", "Git", "bin", "bash.exe");
  const env = { PATH: `${join(root, "empty")};${bin}`, PATHEXT: ".COM;.EXE;.BAT;.CMD" };
  expect(locateShell(env, "win32")).toBe(exe);
  // Without PATHEXT the default list still has .EXE.
  expect(locateShell({ PATH: bin }, "win32")).toBe(exe);
  // The same PATH on Linux does not turn bash into bash.exe.
  expect(locateShell({ PATH: bin }, "linux")).toBeUndefined();
});

test("windows: the WSL launcher in System32 is skipped, sh.exe is the fallback", () => {
  const system = join(root, "b", "Windows");
  program("b", "Windows", "System32", "bash.exe");
  const sh = program("b", "usr", "bin", "sh.exe");
  const env = { PATH: `${join(system, "System32")};${join(root, "b", "usr", "bin")}`, SystemRoot: system };
  expect(locateShell(env, "win32")).toBe(sh);
});

test("windows: Git Bash in its default install folder is found when PATH lists no shell", () => {
  const pf = join(root, "c", "Program Files");
  const exe = program("c", "Program Files", "Git", "bin", "bash.exe");
  expect(locateShell({ PATH: join(root, "empty"), ProgramFiles: pf }, "win32")).toBe(exe);
  const local = join(root, "c", "Local");
  const mine = program("c", "Local", "Programs", "Git", "bin", "bash.exe");
  expect(locateShell({ PATH: "", LOCALAPPDATA: local }, "win32")).toBe(mine);
  expect(locateShell({ PATH: "" }, "win32")).toBeUndefined();
});

test("linux: bash before sh, as before", () => {
  const bash = program("d", "bin", "bash");
  program("d", "bin", "sh");
  expect(locateShell({ PATH: join(root, "d", "bin") }, "linux")).toBe(bash);
});
