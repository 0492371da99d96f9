// What the agent benchmarks share: one in-process mock model server whose script the benchmark swaps per
// run and which timestamps every model request as it arrives, throwaway config/data/workspace dirs, the
// argv of `i` from source or compiled, and running a program while sampling its process tree's memory.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
import {
  type MockStep,
  type RecordedRequest,
  startMockServer,
} from "../../test/fixtures/mock-server/index.ts";
import { describePeak, type TreePeak, watchTree } from "./tree-rss.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
/**
 * `source` and `compiled` are this tree's; `compiled:PATH` is the compiled binary of another checkout
 * (built there with `npm run build`); any other mode is the path of another checkout, run from source (A/B).
 */
export type Mode = "source" | "compiled" | (string & {});

const COMPILED_OTHER = "compiled:";

export function compiledBinary(root = ROOT): string {
  const os = platform() === "win32" ? "windows" : platform();
  return join(root, "dist", `i-${os}-${arch()}`, os === "windows" ? "i.exe" : "i");
}

/** The compiled example compactor of this tree's build (examples/local-compactor). */
export function compiledCompactor(root = ROOT): string {
  const os = platform() === "win32" ? "windows" : platform();
  const name = os === "windows" ? "i-local-compactor.exe" : "i-local-compactor";
  return join(root, "dist", `i-examples-${os}-${arch()}`, "local-compactor", name);
}

/**
 * Builds dist/ from this checkout, every time: a binary left from an earlier build would silently
 * measure older code (a host build takes about a second).
 */
export function ensureCompiled(): void {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm run build failed");
}

/** `--mode a,b`: each must be source, compiled or a checkout of i; builds dist/ when compiled is asked for. */
export function parseModes(list: string): Mode[] {
  const modes = list.split(",") as Mode[];
  for (const m of modes) {
    if (m.startsWith(COMPILED_OTHER)) {
      const bin = compiledBinary(m.slice(COMPILED_OTHER.length));
      if (!existsSync(bin))
        throw new Error(`--mode: ${bin} does not exist; run \`npm run build\` in that checkout`);
      continue;
    }
    if (m !== "source" && m !== "compiled" && !existsSync(join(m, "src", "cli", "main.ts")))
      throw new Error(
        `--mode: "${m}" is neither source, compiled, compiled:PATH nor a checkout of i (for an A/B comparison)`,
      );
  }
  if (modes.includes("compiled")) ensureCompiled();
  return modes;
}

/** S0: N one-line bash tool turns (`echo turn K`), then a final answer. */
export const s0 =
  (turns: number): Responder =>
  (k) =>
    k < turns
      ? { tool_calls: [{ name: "bash", arguments: { command: `echo turn ${k + 1}` } }] }
      : { text: "all commands ran" };

/** S0 without bash: N one-line `read` tool turns (the workspace's turn.txt), then a final answer. */
export const s0read =
  (turns: number): Responder =>
  (k) =>
    k < turns ? { tool_calls: [{ name: "read", arguments: { path: READ_FILE } }] } : { text: "all read" };

/** The one-line file s0read's turns read, in the workspace benchDirs makes. */
export const READ_FILE = "turn.txt";

/** What the floor loop needs to send the same request as `i`: taken from i's first request body. */
export interface Shape {
  model: string;
  system: string;
  prompt: string;
  tools: unknown[];
  max_tokens?: number;
}

export function agentArgv(mode: Mode): string[] {
  if (mode === "compiled") return [compiledBinary()];
  if (mode.startsWith(COMPILED_OTHER)) return [compiledBinary(mode.slice(COMPILED_OTHER.length))];
  return [process.execPath, join(mode === "source" ? ROOT : mode, "src", "cli", "main.ts")];
}

const sandboxOffFlags = new Map<Mode, string[]>();
/**
 * `--sandbox off` for a build whose bash runs sandboxed by default, nothing for one that predates the
 * sandbox (it would refuse the value). The floor runs bash unsandboxed, so a per-turn comparison with it,
 * or with an older build, turns the sandbox off; scripts/bench/guard.ts states the sandbox's own cost.
 */
export function sandboxOff(mode: Mode): string[] {
  let flags = sandboxOffFlags.get(mode);
  if (!flags) {
    const [cmd, ...args] = agentArgv(mode) as [string, ...string[]];
    const help = spawnSync(cmd, [...args, "--help"], { encoding: "utf8" }).stdout ?? "";
    // The --sandbox entry of the help: its lines up to the next option.
    const entry = /--sandbox\b[^\n]*(\n {20,}[^\n]*)*/.exec(help)?.[0] ?? "";
    flags = /\boff\b/.test(entry) ? ["--sandbox", "off"] : [];
    sandboxOffFlags.set(mode, flags);
  }
  return flags;
}

/** One run's script: answer request k (from 0) with this step; every arrival time is recorded. */
export type Responder = (index: number, req: RecordedRequest) => MockStep;

export interface BenchMock {
  url: string;
  /** start a new run: arrival times restart, `respond` answers */
  reset(respond: Responder): void;
  /** arrival times (performance.now(), ms) of this run's requests */
  readonly arrivals: number[];
  /** the first request body of this run */
  readonly first: unknown;
  close(): Promise<void>;
}

export async function benchMock(): Promise<BenchMock> {
  let respond: Responder = () => ({ text: "no run" });
  let arrivals: number[] = [];
  let first: unknown;
  const server = await startMockServer({
    script: (req) => {
      arrivals.push(performance.now());
      // The mock records every body; a 3,000-turn run would keep gigabytes of them. Only the count matters.
      server.requests.length = 0;
      if (arrivals.length === 1) first = req.body;
      return respond(arrivals.length - 1, req);
    },
  });
  return {
    url: server.url,
    reset(r) {
      respond = r;
      arrivals = [];
      first = undefined;
    },
    get arrivals() {
      return arrivals;
    },
    get first() {
      return first;
    },
    close: () => server.close(),
  };
}

export interface BenchDirs {
  root: string;
  workspace: string;
  configDir: string;
  dataDir: string;
  env: Record<string, string>;
  remove(): void;
}

/** Throwaway dirs and env for `i` (HOME too, so nothing of the machine's ~/.i is read or written). */
export function benchDirs(opts: {
  contextWindow: number;
  profile?: string;
  /** modules removed from the profile (plugins.json `disabled`) */
  disabled?: string[];
  under?: string;
}): BenchDirs {
  const root = mkdtempSync(join(opts.under ?? tmpdir(), "i-bench-agent-"));
  const d = (n: string) => {
    const p = join(root, n);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const [workspace, configDir, dataDir, home] = [d("ws"), d("cfg"), d("data"), d("home")];
  writeFileSync(join(workspace, READ_FILE), "one line\n");
  writeFileSync(
    join(configDir, "config.json"),
    JSON.stringify({
      models: { "mock-model": { context_window: opts.contextWindow, max_output_tokens: 4096 } },
    }),
  );
  if (opts.profile || opts.disabled?.length)
    writeFileSync(
      join(configDir, "plugins.json"),
      JSON.stringify({
        ...(opts.profile ? { profile: opts.profile } : {}),
        ...(opts.disabled?.length ? { disabled: opts.disabled } : {}),
      }),
    );
  return {
    root,
    workspace,
    configDir,
    dataDir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      I_CONFIG_DIR: configDir,
      I_DATA_DIR: dataDir,
      OPENAI_API_KEY: "sk-bench-not-a-real-key",
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function printArgs(url: string, dirs: BenchDirs, maxTurns: number): string[] {
  return [
    "-p",
    "run the commands",
    "--approve",
    "all",
    "--max-turns",
    String(maxTurns),
    "--base-url",
    url,
    "-m",
    "mock-model",
    "--provider",
    "openai",
    "--workspace",
    dirs.workspace,
  ];
}

export interface ProgramRun {
  code: number;
  stderr: string;
  memory: TreePeak | undefined;
  /** spawn to exit, ms */
  wallMs: number;
  /** performance.now() at spawn (the mock's arrival times are on the same clock) */
  startedAt: number;
}

/** Run a program to its end (stdout dropped), sampling the RSS of its whole process tree every `everyMs`. */
export function runSampled(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  everyMs?: number,
): Promise<ProgramRun> {
  const [file, ...args] = argv as [string, ...string[]];
  const t0 = performance.now();
  const child = spawn(file, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  const watch = child.pid === undefined ? undefined : watchTree(child.pid, everyMs);
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    if (stderr.length < 4000) stderr += c.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    // Sample until exit: by then every worker it started has been closed.
    child.on("exit", (code, signal) => {
      const memory = watch?.stop();
      resolve({
        code: code ?? (signal ? 128 : -1),
        stderr,
        memory,
        wallMs: performance.now() - t0,
        startedAt: t0,
      });
    });
  });
}

export { describePeak };
