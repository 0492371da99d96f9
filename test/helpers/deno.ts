// The CLI from source under Deno 2 (the npm dev dependency): the tests that check the code runs there
// unmodified spawn it the same way, synchronously for one worker exchange or in the background for a
// run against the mock model this test process serves.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CliResult, MAIN, ROOT, startProgram, tempDir } from "./cli.ts";

export const DENO = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "deno.cmd" : "deno");

/** How Deno runs a program of this repository: every permission, as Bun does. */
export const DENO_RUN = [DENO, "run", "-A"] as const;

const cliArgs = (args: readonly string[]) => [...DENO_RUN.slice(1), MAIN, ...args];

/** `i args…` under Deno, waited for; `input` is its whole stdin. */
export function denoCliSync(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): SpawnSyncReturns<string> {
  return spawnSync(DENO, cliArgs(args), { ...opts, encoding: "utf8" });
}

/** `i args…` under Deno without blocking the event loop (the mock model answers from this process). */
export function denoCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return startProgram(DENO, cliArgs(args), { env }).done;
}

/** A dir for dirEnv with a workspace (ws/) and a config (cfg/) that knows the mock model's window. */
export function denoHome(prefix: string): string {
  const dir = tempDir(prefix);
  mkdirSync(join(dir, "ws"));
  mkdirSync(join(dir, "cfg"));
  writeFileSync(
    join(dir, "cfg", "config.json"),
    JSON.stringify({ models: { "mock-model": { context_window: 50000 } } }),
  );
  return dir;
}
