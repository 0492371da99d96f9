// Runs the `i` CLI from source as a real child process, with its own config and data directories.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
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

/** The session directories a run left in I_DATA_DIR (not its queues/ or memory/ folders). */
export function savedSessionIds(dataDir: string): string[] {
  return readdirSync(dataDir).filter((d) => d !== "queues" && d !== "memory");
}

export function tempDir(prefix = "i-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Start any program without blocking the event loop, collecting its output; stdin gets `input`, then EOF. */
export function startProgram(
  file: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): RunningCli {
  const child = spawn(file, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  child.stdin?.end(opts.input);
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }));
  });
  return { child, done };
}

/** Start the CLI without blocking the event loop (needed when the test process also serves the mock model). */
export function startCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  input?: string,
): RunningCli {
  return startProgram(process.execPath, [MAIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    ...(input !== undefined ? { input } : {}),
  });
}

export function runCliAsync(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  input?: string,
): Promise<CliResult> {
  return startCli(args, env, cwd, input).done;
}

/** The environment of a CLI run whose config and data live in `dir`/cfg and `dir`/data (a throwaway key). */
export function dirEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    I_CONFIG_DIR: join(dir, "cfg"),
    I_DATA_DIR: join(dir, "data"),
    OPENAI_API_KEY: "x",
  };
}
