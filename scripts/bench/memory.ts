// Peak memory of the whole process tree of `i -p` (core + worker processes + the commands it runs), sampled
// from /proc every 20 ms (tree-rss.ts). Two runs against the in-process mock model:
//   S1     40 tool turns whose output fills a 12k-token window, so the session compacts several times
//          (model-written summaries through the built-in compact module)
//   S0     N one-line bash tool turns (default 1,000) in a window that never fills
// Target: ≤ 110 MB peak for both. Prints the median over runs of the RSS sum and of the PSS sum, and the
// last run's per-process breakdown (anonymous memory: JS heap, malloc, JIT; file-backed: the mapped
// executable, which the core and its worker share).
//
// RSS sum counts the executable's pages once per process; PSS splits each shared page among the processes
// mapping it, so the PSS sum is the memory the tree really occupies. The floor is printed first: a
// compiled Bun program that does nothing, and an idle `i worker` of the same build.
//   bun scripts/bench/memory.ts [--runs 3] [--turns 1000] [--mode compiled,source,/path/to/i-before]
//                               [--profile standard] [--heap] [--only S0|S1]
// A mode is source, compiled, a checkout of i (run from source) or a compiled `i` executable (an A/B
// comparison of two builds in the same run, e.g. main's dist/i-linux-x64/i copied aside). --heap also
// prints each process's JS heap at exit (the I_DEBUG_MEMORY report of src/runtime/memory-report.ts).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { MemoryReport } from "../../src/runtime/memory-report.ts";
import { BUILTIN_WORKER_ENV } from "../../src/worker/env.ts";
import type { RecordedRequest } from "../../test/fixtures/mock-server/index.ts";
import {
  agentArgv,
  benchDirs,
  benchMock,
  compiledBinary,
  describePeak,
  type Mode,
  parseModes,
  printArgs,
  type Responder,
  runSampled,
  s0,
} from "./agent-run.ts";
import { fmt, median } from "./stats.ts";
import { mb, sampleTree, type TreePeak } from "./tree-rss.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    turns: { type: "string", default: "1000" },
    mode: { type: "string", default: "compiled" },
    profile: { type: "string", default: "standard" },
    heap: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const RUNS = Number(values.runs);

const isExecutable = (p: string) => {
  try {
    return statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};
/** Compiled executables given by path stay as they are; the rest is checked by parseModes. */
const MODES: Mode[] = (() => {
  const list = values.mode.split(",");
  const others = list.filter((m) => !isExecutable(m));
  if (others.length > 0) parseModes(others.join(","));
  return list;
})();
const argvOf = (mode: Mode) => (isExecutable(mode) ? [mode] : agentArgv(mode));
const binaryOf = (mode: Mode) =>
  isExecutable(mode) ? mode : mode === "compiled" ? compiledBinary() : undefined;

/**
 * Drops the executable's pages from the page cache before a run (Linux, `dd iflag=nocache`), so every
 * build starts from the same state: the kernel maps a file's pages in folios whose size depends on how
 * they entered the cache (written by a build or a copy: large folios; read back by a run: smaller), and a
 * freshly copied binary shows ~4 MB more file-backed RSS per process than one read from disk, for the
 * same code. Elsewhere it does nothing.
 */
function evictFromPageCache(bin: string | undefined): void {
  if (!bin || process.platform !== "linux") return;
  // Written pages cannot be dropped before they reach the disk (a build that just finished): sync first.
  spawnSync("sync", [bin], { stdio: "ignore" });
  spawnSync("dd", [`if=${bin}`, "iflag=nocache", "count=0", "status=none"], { stdio: "ignore" });
}

const isSummaryRequest = (req: RecordedRequest) => {
  const body = req.body as { tools?: unknown[] };
  return !body.tools || body.tools.length === 0;
};

/** S1: each tool turn prints 180 numbered lines (~1.5k tokens); summary requests get a short summary. */
function s1(turns: number): Responder {
  let done = 0;
  let summaries = 0;
  return (_k, req) => {
    if (isSummaryRequest(req)) {
      summaries++;
      return { text: `## Goal\nList lines.\n## Progress\nSummary ${summaries}: ${done} listings so far.` };
    }
    if (done < turns) {
      done++;
      return {
        tool_calls: [{ name: "bash", arguments: { command: `seq 1 180 | sed 's/^/line ${done} /'` } }],
      };
    }
    return { text: "finished" };
  };
}

const SCENARIOS = [
  { name: "S1 (40 turns, 12k window, compacting)", window: 12_000, turns: 40, respond: s1 },
  {
    name: `S0 (${values.turns} one-line turns)`,
    window: 4_000_000,
    turns: Number(values.turns),
    respond: s0,
  },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(", ")}`;

/** The tree of a process that sits idle: started, given `input`, sampled after it has settled. */
async function idlePeak(
  argv: string[],
  input: string,
  extraEnv: Record<string, string> = {},
): Promise<TreePeak> {
  const dirs = benchDirs({ contextWindow: 1 });
  try {
    const [file, ...args] = argv as [string, ...string[]];
    const child = spawn(file, args, {
      cwd: dirs.workspace,
      env: { ...dirs.env, ...extraEnv },
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.stdin.write(input);
    await sleep(1500);
    const peak: TreePeak = { peak: 0, pssPeak: 0, procs: new Map(), samples: 0 };
    if (child.pid !== undefined) sampleTree(child.pid, peak);
    child.kill();
    await new Promise((r) => child.on("exit", r));
    return peak;
  } finally {
    dirs.remove();
  }
}

const WORKER_MODULES = ["budget", "prompts", "compact", "skills", "memory", "cache", "search"];
const hellos = (ws: string) =>
  WORKER_MODULES.map(
    (m, i) =>
      `${JSON.stringify({ id: i + 1, event: "hello", workspace: ws, data: { protocol: 1, module: m }, module: m })}\n`,
  ).join("");

/** The floor: a compiled Bun program that only waits, and an idle built-in worker of the build under test. */
async function printFloor(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "i-bench-floor-"));
  try {
    writeFileSync(join(dir, "idle.ts"), "setTimeout(() => {}, 60_000);\n");
    const out = join(dir, "idle");
    const r = spawnSync(process.execPath, ["build", "--compile", join(dir, "idle.ts"), "--outfile", out], {
      stdio: "ignore",
    });
    if (r.status === 0)
      console.log(`floor: compiled Bun program, idle: ${describePeak(await idlePeak([out], ""))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const mode of MODES) {
    const bin = binaryOf(mode);
    if (!bin) continue;
    // Started as the host starts it, with the runtime settings of built-in workers.
    evictFromPageCache(bin);
    const p = await idlePeak([bin, "worker", WORKER_MODULES.join(",")], hellos(tmpdir()), {
      ...BUILTIN_WORKER_ENV,
    });
    console.log(`floor: idle \`i worker\` (${mode}) after its 7 hellos: ${describePeak(p)}`);
  }
}

function printHeaps(dir: string): void {
  for (const f of readdirSync(dir).sort()) {
    const r = JSON.parse(readFileSync(join(dir, f), "utf8")) as MemoryReport;
    const h = r.heap;
    const cpu = (r.cpu.user + r.cpu.system) / 1e6;
    console.log(
      `  ${r.role}: at exit RSS ${fmt(mb(r.memoryUsage.rss), 1)} MB, JS heap ${h ? `${fmt(mb(h.size), 1)} MB (capacity ${fmt(mb(h.capacity), 1)}, of which strings/buffers ${fmt(mb(h.extra), 1)})` : "n/a"}, live after a full GC ${r.live ? fmt(mb(r.live.size), 1) : "n/a"} MB; CPU ${fmt(cpu, 2)} s`,
    );
  }
}

const mock = await benchMock();
try {
  console.log(
    `peak memory of the whole process tree, profile ${values.profile}, ${RUNS} runs each; ${load()}`,
  );
  await printFloor();
  for (const sc of SCENARIOS.filter((s) => values.only === undefined || s.name.startsWith(values.only))) {
    // Modes interleaved run by run, so a busy phase of the machine does not always hit the same build.
    const peaks = new Map<Mode, TreePeak[]>(MODES.map((m) => [m, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const mode of run % 2 === 0 ? MODES : [...MODES].reverse()) {
        const dirs = benchDirs({ contextWindow: sc.window, profile: values.profile });
        const heapDir = values.heap ? mkdtempSync(join(tmpdir(), "i-bench-heap-")) : undefined;
        try {
          mock.reset(sc.respond(sc.turns));
          evictFromPageCache(binaryOf(mode));
          const env = heapDir ? { ...dirs.env, I_DEBUG_MEMORY: heapDir } : dirs.env;
          const r = await runSampled(
            [...argvOf(mode), ...printArgs(mock.url, dirs, sc.turns * 2 + 10)],
            env,
            dirs.workspace,
          );
          if (r.code !== 0) throw new Error(`i (${mode}) exited ${r.code}: ${r.stderr.trim()}`);
          if (r.memory) peaks.get(mode)?.push(r.memory);
          if (heapDir && run === RUNS - 1) {
            console.log(`${sc.name}, i (${mode}), last run's processes:`);
            printHeaps(heapDir);
          }
        } finally {
          dirs.remove();
          if (heapDir) rmSync(heapDir, { recursive: true, force: true });
        }
      }
    }
    for (const mode of MODES) {
      const ps = peaks.get(mode) ?? [];
      const xs = ps.map((p) => mb(p.peak));
      const pss = ps.map((p) => mb(p.pssPeak));
      console.log(
        `${sc.name}, i (${mode}): median peak PSS ${fmt(median(pss), 1)} MB (runs: ${pss.map((x) => fmt(x, 1)).join(", ")}), RSS sum ${fmt(median(xs), 1)} MB (runs: ${xs.map((x) => fmt(x, 1)).join(", ")})`,
      );
      console.log(`  last run: ${describePeak(ps[ps.length - 1])}`);
    }
  }
  console.log(load());
} finally {
  await mock.close();
}
