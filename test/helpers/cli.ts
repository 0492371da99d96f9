// Runs the `i` CLI from source as a real child process, with its own config and data directories.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const MAIN = join(ROOT, "src", "cli", "main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  input?: string,
): CliResult {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    input,
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix = "i-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
