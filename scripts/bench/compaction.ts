// Compaction latency through real worker processes: plan, local summary (the example replacement
// compactor), postprocess, candidate checks and the atomic commit, for three history sizes to show linear
// growth. Targets for 2,000 messages / ~1M tokens: auto ≤ 50 ms median, manual ≤ 80 ms. The floor,
// measured in the same run: the history's request line through a pipe to a worker that echoes it
// unparsed, and back, twice (compact_plan and before_compact each carry the history there and back).
// Two paths are measured, both printed:
//   auto   — the controller compacts from prepareRequest: the budget reading it took of exactly this
//            history before the request is the baseline, so the compaction itself starts at planning.
//            The headline is the time after that pre-request budget check (which runs before every
//            request, compaction or not); the whole prepareRequest is printed beside it.
//   manual — /compact: a fresh baseline budget reading of the full history is part of the compaction.
// Every run gets a fresh copy of the history (new message objects), so per-message caches start cold.
// With --compiled, the workers are the compiled executables in dist/ (built first), as a user runs them:
// engine settings baked into the build (its JIT policy) then apply to them too.
// Usage: bun scripts/bench/compaction.ts [runs] [--compiled]

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompactionController } from "../../src/compaction/controller.ts";
import type { CompactionRecord } from "../../src/contract/compaction.ts";
import type { History } from "../../src/contract/history.ts";
import type { HookReply } from "../../src/contract/hooks.ts";
import type { HookEvent } from "../../src/contract/protocol.ts";
import { estimateRequest } from "../../src/lib/estimator.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import type { Provider } from "../../src/provider/types.ts";
import { procStat } from "../../src/runtime/proc-stat.ts";
import { Session } from "../../src/session/session.ts";
import { encodeRequestBytes } from "../../src/worker/encode-request.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import type { HookData, HookOptions, HookRunner } from "../../src/worker/types.ts";
import { compiledBinary, compiledCompactor, ensureCompiled } from "./agent-run.ts";
import { benchHistory } from "./history-gen.ts";
import { fmt, median, report } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const COMPILED = process.argv.includes("--compiled");
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 15);
if (COMPILED) ensureCompiled();
const WARMUP = 2;
const SIZES: [messages: number, tokens: number][] = [
  [500, 250_000],
  [1000, 500_000],
  [2000, 1_000_000],
];
const MAX_OUTPUT = 32_000;

const noModel: Provider = {
  name: "openai",
  stream: () => Promise.reject(new Error("the local route must not call the model")),
};

type Path = "auto" | "manual";

/** Per-run timings: each hook call by event (and size), the commit, and when the first budget call ended. */
interface RunTimes {
  steps: Map<string, number>;
  firstBudgetEnd?: number;
}

/** Times every hook call of the current run: where the time goes. */
class TimedHooks implements HookRunner {
  run: RunTimes = { steps: new Map() };
  path: Path = "manual";
  constructor(private readonly inner: HookRunner) {}
  hasHook(e: HookEvent) {
    return this.inner.hasHook(e);
  }
  async runHook<E extends HookEvent>(e: E, d: HookData, o?: HookOptions): Promise<HookReply<E>> {
    const t0 = performance.now();
    try {
      return await this.inner.runHook(e, d, o);
    } finally {
      const t1 = performance.now();
      let name: string = e;
      if (e === "budget" && this.run.firstBudgetEnd === undefined) {
        this.run.firstBudgetEnd = t1;
        name =
          this.path === "auto"
            ? "budget (pre-request check = baseline; not in the headline)"
            : "budget (full history: the fresh baseline)";
      } else if (e === "budget") name = "budget (candidate)";
      this.add(name, t1 - t0);
    }
  }
  add(name: string, ms: number) {
    this.run.steps.set(name, (this.run.steps.get(name) ?? 0) + ms);
  }
  callTool(n: string, a: unknown, id: string) {
    return this.inner.callTool(n, a, id);
  }
  toolDecls() {
    return this.inner.toolDecls();
  }
  close() {
    return this.inner.close();
  }
}

const configDir = mkdtempSync(join(tmpdir(), "i-bench-config-"));
const dataDir = mkdtempSync(join(tmpdir(), "i-bench-data-"));
const workspace = mkdtempSync(join(tmpdir(), "i-bench-ws-"));
const self = COMPILED ? [compiledBinary()] : [process.execPath, join(ROOT, "src", "cli", "main.ts")];
const compactor = COMPILED
  ? [compiledCompactor()]
  : [process.execPath, join(ROOT, "examples", "local-compactor", "main.ts")];
const manifest = generateManifest({
  profile: "compact",
  configDir,
  plugins: {},
  bindings: {
    compact: {
      exec: [...compactor, "--keep", "4"],
    },
  },
  self,
});
const workerPids = new Set<number>();
const host = new WorkerHost(manifest, {
  workspace,
  configDir,
  observer: (proc) => {
    if (proc.pid !== undefined) workerPids.add(proc.pid);
  },
});

/**
 * CPU time the worker processes have used so far, in ms (Linux /proc, 10 ms ticks: meaningful as a mean
 * over runs). Beside the wall-clock medians it shows the work itself, which load does not stretch.
 */
function workerCpuMs(): number {
  let ticks = 0;
  for (const pid of workerPids) {
    const field = procStat(pid);
    if (field) ticks += Number(field(14)) + Number(field(15)); // utime, stime
  }
  return ticks * 10;
}

function coreCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
await host.start();
const hooks = new TimedHooks(host);

// The floor: the same pipes and the same reading of replies as the host, no parsing on either side.
const echo = spawn(process.execPath, [join(ROOT, "scripts", "bench", "line-echo.ts")], {
  stdio: ["pipe", "pipe", "inherit"],
});
let echoed: (() => void) | undefined;
echo.stdout.on("data", (chunk: Buffer) => {
  if (chunk[chunk.length - 1] === 0x0a) echoed?.();
});

/** Two round trips of `history`'s request line through the echo worker, in ms. */
async function floorOnce(history: History): Promise<number> {
  const line = encodeRequestBytes({ id: 1, event: "compact_plan", workspace, data: { history } });
  const t0 = performance.now();
  for (let i = 0; i < 2; i++) {
    const back = new Promise<void>((resolve) => {
      echoed = resolve;
    });
    echo.stdin.write(line);
    await back;
  }
  return performance.now() - t0;
}

/** One compaction of a fresh copy of `history`; returns the run's timings and the measured totals. */
async function once(path: Path, history: History, contextWindow: number) {
  const copy = structuredClone(history);
  const session = Session.create({ dataDir, workspace });
  session.checkpoint(copy);
  hooks.run = { steps: new Map() };
  hooks.path = path;
  const run = hooks.run;
  const commit = session.commitCompaction.bind(session);
  session.commitCompaction = (b: History, a: History, r: CompactionRecord) => {
    const t0 = performance.now();
    commit(b, a, r);
    hooks.add("commit (.precompact.json, history.json, events.jsonl)", performance.now() - t0);
  };
  let compacted = false;
  let failure = "";
  const controller = new CompactionController({
    hooks,
    provider: noModel,
    model: { name: "bench", context_window: contextWindow, max_output_tokens: MAX_OUTPUT },
    policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
    workspace,
    session,
    emit: (ev) => {
      if (ev.type === "compaction" && ev.phase === "done") compacted = true;
      if (ev.type === "compaction" && ev.phase !== "start" && ev.phase !== "done") failure = ev.error ?? "";
    },
  });
  const cpu0 = { core: coreCpuMs(), workers: workerCpuMs() };
  const t0 = performance.now();
  const out =
    path === "auto" ? await controller.prepareRequest(copy, []) : await controller.compactNow(copy, []);
  const t1 = performance.now();
  const cpu = { core: coreCpuMs() - cpu0.core, workers: workerCpuMs() - cpu0.workers };
  if (!compacted || out.length >= copy.length)
    throw new Error(`${path}: the history was not compacted ${failure}`);
  rmSync(session.dir, { recursive: true, force: true });
  const afterBudget = t1 - (run.firstBudgetEnd ?? t0);
  return { run, total: t1 - t0, afterBudget, cpu };
}

function printSteps(samples: RunTimes[], totals: number[]): void {
  const names = [...new Set(samples.flatMap((s) => [...s.steps.keys()]))];
  for (const name of names) {
    const xs = samples.map((s) => s.steps.get(name) ?? 0);
    console.log(`    ${name.padEnd(60)} median ${fmt(median(xs), 1)} ms`);
  }
  const rest = samples.map(
    (s, i) => (totals[i] as number) - [...s.steps.values()].reduce((a, b) => a + b, 0),
  );
  console.log(
    `    ${"core in between (validation, checks, candidate)".padEnd(60)} median ${fmt(median(rest), 1)} ms`,
  );
}

/** Mean CPU per compaction (whole prepareRequest / compactNow), core and workers. */
function printCpu([core, workers]: number[], n: number): void {
  if (workerPids.size === 0 || !existsSync("/proc/self/stat")) return;
  const c = (core as number) / n;
  const w = (workers as number) / n;
  console.log(
    `    ${"CPU per compaction, mean: core + workers (/proc)".padEnd(60)} ${fmt(c, 1)} + ${fmt(w, 1)} = ${fmt(c + w, 1)} ms`,
  );
}

const growth: Record<Path, [number, number][]> = { auto: [], manual: [] };
const floors: [number, number][] = [];
try {
  for (const [messages, tokens] of SIZES) {
    const history: History = benchHistory(messages, tokens);
    const mb = Buffer.byteLength(JSON.stringify(history)) / 1e6;
    // A window the history fills to ~90% of the hard limit: the budget recommends compaction (auto path).
    const estimate = estimateRequest(history, undefined, [], undefined).total;
    const contextWindow = Math.ceil(estimate / 0.9) + MAX_OUTPUT;
    const auto = { steps: [] as RunTimes[], after: [] as number[], total: [] as number[], cpu: [0, 0] };
    const manual = { steps: [] as RunTimes[], total: [] as number[], cpu: [0, 0] };
    const floor: number[] = [];
    for (let i = 0; i < runs + WARMUP; i++) {
      // Alternate the paths so machine noise affects both alike; the first runs warm up the JIT.
      const a = await once("auto", history, contextWindow);
      const m = await once("manual", history, contextWindow);
      const f = await floorOnce(history);
      if (i < WARMUP) continue;
      floor.push(f);
      auto.steps.push(a.run);
      auto.after.push(a.afterBudget);
      auto.total.push(a.total);
      auto.cpu = [(auto.cpu[0] as number) + a.cpu.core, (auto.cpu[1] as number) + a.cpu.workers];
      manual.cpu = [(manual.cpu[0] as number) + m.cpu.core, (manual.cpu[1] as number) + m.cpu.workers];
      manual.steps.push(m.run);
      manual.total.push(m.total);
    }
    console.log(`\n${messages} messages, ~${tokens / 1000}k tokens, ${fmt(mb, 1)} MB of history JSON`);
    report("  auto (baseline from the pre-request budget check): compaction", auto.after, "ms", 1);
    report("    whole prepareRequest (pre-request budget check + compaction)", auto.total, "ms", 1);
    printSteps(auto.steps, auto.total);
    printCpu(auto.cpu, runs);
    report("  manual (fresh baseline): compaction", manual.total, "ms", 1);
    printSteps(manual.steps, manual.total);
    printCpu(manual.cpu, runs);
    report("  floor: the history through a pipe and back, unparsed, twice", floor, "ms", 1);
    growth.auto.push([messages, median(auto.after)]);
    growth.manual.push([messages, median(manual.total)]);
    floors.push([messages, median(floor)]);
  }
  console.log("");
  for (const path of ["auto", "manual"] as const) {
    const [first, last] = [growth[path][0], growth[path][growth[path].length - 1]];
    if (!first || !last) continue;
    const sizes = growth[path].map(([n, ms]) => `${n}: ${fmt(ms, 1)} ms`).join(", ");
    console.log(
      `growth (${path}): ${sizes}; ${first[0]} → ${last[0]} messages (×${last[0] / first[0]}) took ×${fmt(last[1] / first[1], 2)} the time (linear would be ×${last[0] / first[0]})`,
    );
  }
  const auto = growth.auto[growth.auto.length - 1]?.[1];
  const manual = growth.manual[growth.manual.length - 1]?.[1];
  const floor = floors[floors.length - 1]?.[1];
  if (auto !== undefined && manual !== undefined && floor !== undefined)
    console.log(
      `targets for 2,000 messages: auto ≤ 50 ms median: ${fmt(auto, 1)} ms; manual ≤ 80 ms: ${fmt(manual, 1)} ms; floor (same run): ${fmt(floor, 1)} ms`,
    );
} finally {
  echo.stdin.end();
  await host.close();
  for (const d of [configDir, dataDir, workspace]) rmSync(d, { recursive: true, force: true });
}
