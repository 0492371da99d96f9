// The one place that knows which JavaScript runtime we are on. Everything else uses node: builtins and
// web APIs so the code runs unmodified under Bun and Deno 2; anything Bun-only goes behind this module.

export const runtimeName: "bun" | "deno" | "node" =
  typeof (globalThis as { Bun?: unknown }).Bun !== "undefined"
    ? "bun"
    : typeof (globalThis as { Deno?: unknown }).Deno !== "undefined"
      ? "deno"
      : "node";

/** What Bun.spawn returns, as far as `i` uses it (group-leader.ts). */
export interface BunSubprocess {
  readonly pid: number;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): void;
}

export interface BunSpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdio: ["ignore", number, number];
  detached: boolean;
  onExit(proc: BunSubprocess, exitCode: number | null, signalCode: number | null, error?: Error): void;
}

interface BunGlobal {
  main: string;
  spawn?: (cmd: string[], opts: BunSpawnOptions) => BunSubprocess;
  gc?: (force: boolean) => void;
  unsafe?: { setJITPolicy?: (scale: number) => void };
}

function bun(): BunGlobal | undefined {
  return (globalThis as { Bun?: BunGlobal }).Bun;
}

/** True when running as a `bun build --compile` standalone executable. */
export function isCompiled(): boolean {
  const b = bun();
  // Bun compiled binaries serve their bundled sources from a virtual `/$bunfs/` (or `B:/~BUN/`) root.
  return !!b && (b.main.startsWith("/$bunfs/") || b.main.includes("~BUN"));
}

/**
 * The argv prefix that re-runs this program: the binary itself when compiled, otherwise the runtime plus
 * the entry script. Built-in worker bindings use it (`[...selfArgv(), "worker", MODULE]`).
 */
export function selfArgv(): string[] {
  if (isCompiled()) return [process.execPath];
  const entry = process.argv[1] ?? "";
  if (runtimeName === "deno") return [process.execPath, "run", "-A", entry];
  return [process.execPath, entry];
}

/** Bun's own spawn, where the runtime has it: it starts a process without node's stream machinery. */
export function bunSpawn(): BunGlobal["spawn"] {
  return bun()?.spawn;
}

/** Monotonic clock in nanoseconds, for benchmarks and round-trip figures. */
export function nowNs(): bigint {
  return process.hrtime.bigint();
}

/**
 * Make the engine's JIT `scale` times more reluctant to compile (1 is its normal policy): code must run
 * that many times more often before it is optimised. A runtime without such a control ignores it.
 */
export function setJitReluctance(scale: number): void {
  bun()?.unsafe?.setJITPolicy?.(scale);
}

/** A full, synchronous garbage collection, where the runtime offers one (Bun); elsewhere nothing. */
export function collectGarbage(): void {
  bun()?.gc?.(true);
}

/**
 * A collection of the young generation only (JavaScriptCore's eden collection, from bun:jsc), where the
 * runtime offers one; else a full one (collectGarbage). What a request leaves behind is young: this frees
 * it as a full collection does (S1 peak tree PSS 64.4 against 64.7 MB) without marking the whole heap,
 * which on a busy machine was milliseconds a worker spent collecting instead of answering.
 */
export async function youngCollector(): Promise<() => void> {
  if (runtimeName !== "bun") return collectGarbage;
  try {
    const { edenGC } = (await import("bun:jsc")) as { edenGC?: () => number };
    return typeof edenGC === "function" ? () => void edenGC() : collectGarbage;
  } catch {
    return collectGarbage;
  }
}
