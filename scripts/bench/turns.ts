// Per-turn cost of `i` against the floor (S0: N one-line bash tool turns, then a final answer). The mock
// model server runs in this process and timestamps each model request as it arrives; the figure is the
// median time between two consecutive requests: everything the agent does between a reply and the next
// request (parse the stream, run the command, checkpoint, hooks, encode). In the same run, interleaved
// with the agent runs, scripts/bench/turn-floor.ts does the minimal loop in the same runtime (same HTTP
// request with the same system prompt and tools, same bash command, append, next request): the
// difference is what the agent adds. The peak RSS of each run's whole process tree is printed too.
// Target: difference ≤ 3 ms/turn, flat from 100 to 3,000 turns.
//   bun scripts/bench/turns.ts [--turns 100,300] [--runs 3] [--mode source,compiled] [--profile standard]
//                              [--data-dir DIR] [--tool bash|read] [--sandbox off|default]
//                              [--without MODULE,…[/MODULE,…]] [--json]
// --tool read makes every turn a one-line `read` call instead (a turn without bash: what the bash guard
// and the sandbox must leave unchanged); the floor then reads the file itself.
// --data-dir puts the session (and the floor's log) elsewhere, e.g. /dev/shm: there fsync costs nothing,
// which separates the agent's own work from the disk's sync latency (on a VM whose disk other jobs keep
// busy, each fsync can take 10+ ms).
// A mode may also be the path of another checkout (e.g. the previous commit, extracted with git archive),
// run from source: --mode source,/tmp/before compares a change A/B in the same run; compiled:/tmp/before
// runs that checkout's compiled binary (`npm run build` there first): --mode compiled,compiled:/tmp/before.
// --without lsp runs each mode a second time with those modules in plugins.json's `disabled`, interleaved:
// the same binary with and without a module, i.e. what the module costs a session that does not use it;
// `--without lsp/plan` makes one arm per set.
// --json runs `i -p --json` (every event as NDJSON, the totals on `done`) instead of the plain answer.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  agentArgv,
  benchDirs,
  benchMock,
  describePeak,
  type Mode,
  parseModes,
  printArgs,
  runSampled,
  type Shape,
  s0,
  s0read,
  sandboxOff,
} from "./agent-run.ts";
import { fmt, median, quantile } from "./stats.ts";
import { mb, type TreePeak } from "./tree-rss.ts";

const { values } = parseArgs({
  options: {
    turns: { type: "string", default: "100,300" },
    runs: { type: "string", default: "3" },
    mode: { type: "string", default: "source,compiled" },
    profile: { type: "string", default: "standard" },
    "data-dir": { type: "string" },
    tool: { type: "string", default: "bash" },
    sandbox: { type: "string", default: "off" },
    without: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
if (values.tool !== "bash" && values.tool !== "read") {
  console.error(`--tool: "${values.tool}" is not a turn's tool; give bash or read`);
  process.exit(2);
}
const script = values.tool === "read" ? s0read : s0;
// Off by default: the floor runs bash unsandboxed; `--sandbox default` keeps each build's own default.
const SANDBOX = values.sandbox === "default";
const under = values["data-dir"];
const TURN_COUNTS = values.turns.split(",").map(Number);
const RUNS = Number(values.runs);
// Several sets, separated by "/": each is its own arm (`--without lsp/plan/lsp,plan`).
const WITHOUT_SETS = values.without ? values.without.split("/").map((set) => set.split(",")) : [];
/** One side of the comparison: a mode, and the modules its config disables. */
interface Arm {
  mode: Mode;
  disabled: string[];
  label: string;
}
const ARMS: Arm[] = parseModes(values.mode).flatMap((mode) => [
  { mode, disabled: [], label: mode },
  ...WITHOUT_SETS.map((set) => ({ mode, disabled: set, label: `${mode} without ${set.join(",")}` })),
]);

const mock = await benchMock();
// Memory is sampled coarsely here: reading every process's smaps_rollup each 20 ms (what memory.ts does
// for its peaks) kept this process — which is also the mock model — busy half of one core, and the kernel
// walks the sampled processes' page tables under their memory lock; both showed up as time per turn.
const SAMPLE_MS = 500;

/** Median gap between consecutive model requests of the run just finished, ms. */
function perTurn(expected: number, who: string): { ms: number; p10: number } {
  const at = mock.arrivals;
  if (at.length !== expected) throw new Error(`${who}: ${at.length} model requests, expected ${expected}`);
  const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
  // The 10th percentile too: on a shared machine the median includes turns that waited for a CPU.
  return { ms: median(gaps), p10: quantile(gaps, 0.1) };
}

/** Spawn to the first model request of the run just finished, ms. */
const firstAt = (startedAt: number) => (mock.arrivals[0] ?? Number.NaN) - startedAt;

function shapeOf(body: unknown): Shape {
  const b = body as { model: string; messages: { content: string }[]; tools: unknown[]; max_tokens?: number };
  return {
    model: b.model,
    system: b.messages[0]?.content ?? "",
    prompt: b.messages[1]?.content ?? "",
    tools: b.tools,
    ...(b.max_tokens !== undefined ? { max_tokens: b.max_tokens } : {}),
  };
}

interface Sample {
  ms: number;
  p10: number;
  memory: TreePeak | undefined;
  /** the whole run, spawn to exit (start, every turn, the final answer, shutdown) */
  wallMs: number;
  /** spawn to the first model request: the start */
  startMs: number;
}

async function agentRun(arm: Arm, turns: number): Promise<{ sample: Sample; shape: Shape }> {
  const { mode, label } = arm;
  const dirs = benchDirs({
    contextWindow: 4_000_000,
    profile: values.profile,
    disabled: arm.disabled,
    ...(under ? { under } : {}),
  });
  try {
    mock.reset(script(turns));
    const r = await runSampled(
      [
        ...agentArgv(mode),
        ...printArgs(mock.url, dirs, turns + 10),
        ...(SANDBOX ? [] : sandboxOff(mode)),
        ...(values.json ? ["--json"] : []),
      ],
      dirs.env,
      dirs.workspace,
      SAMPLE_MS,
    );
    if (r.code !== 0) throw new Error(`i (${label}) exited ${r.code}: ${r.stderr.trim()}`);
    return {
      sample: {
        ...perTurn(turns + 1, `i (${label})`),
        memory: r.memory,
        wallMs: r.wallMs,
        startMs: firstAt(r.startedAt),
      },
      shape: shapeOf(mock.first),
    };
  } finally {
    dirs.remove();
  }
}

async function floorRun(turns: number, shape: Shape): Promise<Sample> {
  const dirs = benchDirs({ contextWindow: 1, ...(under ? { under } : {}) });
  try {
    const shapeFile = join(dirs.root, "shape.json");
    writeFileSync(shapeFile, JSON.stringify(shape));
    mock.reset(script(turns));
    const argv = [process.execPath, join(import.meta.dirname, "turn-floor.ts"), mock.url, shapeFile];
    const r = await runSampled(
      [...argv, join(dirs.dataDir, "log.jsonl")],
      dirs.env,
      dirs.workspace,
      SAMPLE_MS,
    );
    if (r.code !== 0) throw new Error(`floor exited ${r.code}: ${r.stderr.trim()}`);
    return {
      ...perTurn(turns + 1, "floor"),
      memory: r.memory,
      wallMs: r.wallMs,
      startMs: firstAt(r.startedAt),
    };
  } finally {
    dirs.remove();
  }
}

const peakMb = (s: Sample) => (s.memory ? mb(s.memory.peak) : Number.NaN);

console.log(
  `S0 per-turn profile: one-line ${values.tool} tool turns, profile ${values.profile}${values.json ? ", --json" : ""}, ${RUNS} runs per size, modes ${ARMS.map((a) => a.label).join(", ")} interleaved with the floor; sessions in ${under ?? "the temp dir"}`,
);
const summary: string[] = [];
try {
  for (const turns of TURN_COUNTS) {
    const agent = new Map<string, Sample[]>(ARMS.map((a) => [a.label, []]));
    const floor: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Rotate the order so a slow phase of the machine does not always hit the same side.
      const order = run % 2 === 0 ? ARMS : [...ARMS].reverse();
      let shape: Shape | undefined;
      const line: string[] = [];
      for (const arm of order) {
        const a = await agentRun(arm, turns);
        shape = a.shape;
        agent.get(arm.label)?.push(a.sample);
        line.push(
          `${arm.label} ${fmt(a.sample.ms)} ms (p10 ${fmt(a.sample.p10)}, start ${fmt(a.sample.startMs, 0)}, run ${fmt(a.sample.wallMs, 0)} ms)`,
        );
      }
      const f = await floorRun(turns, shape as Shape);
      floor.push(f);
      line.push(
        `floor ${fmt(f.ms)} ms (p10 ${fmt(f.p10)}, start ${fmt(f.startMs, 0)}, run ${fmt(f.wallMs, 0)} ms)`,
      );
      console.log(`  ${turns} turns, run ${run + 1}: ${line.join(", ")}`);
    }
    const floorMs = median(floor.map((s) => s.ms));
    console.log(`${turns} turns (median of ${RUNS} runs, each the median gap between model requests):`);
    console.log(
      `  floor  ${fmt(floorMs)} ms/turn (best run ${fmt(Math.min(...floor.map((s) => s.ms)))})   start ${fmt(median(floor.map((s) => s.startMs)), 0)} ms, whole run ${fmt(median(floor.map((s) => s.wallMs)), 0)} ms   peak tree RSS ${fmt(median(floor.map(peakMb)), 1)} MB`,
    );
    for (const { label: mode } of ARMS) {
      const xs = agent.get(mode) ?? [];
      const ms = median(xs.map((s) => s.ms));
      const diff = median(xs.map((s, i) => s.ms - (floor[i]?.ms ?? Number.NaN)));
      const best = Math.min(...xs.map((s) => s.ms));
      const wall = median(xs.map((s) => s.wallMs));
      const start = median(xs.map((s) => s.startMs));
      console.log(
        `  i (${mode})  ${fmt(ms)} ms/turn (best run ${fmt(best)})   difference ${fmt(diff)} ms/turn   start ${fmt(start, 0)} ms, whole run ${fmt(wall, 0)} ms   peak tree RSS ${fmt(median(xs.map(peakMb)), 1)} MB`,
      );
      const last = xs[xs.length - 1];
      if (last) console.log(`    last run's tree: ${describePeak(last.memory)}`);
      const p10 = median(xs.map((s) => s.p10));
      const floorP10 = median(floor.map((s) => s.p10));
      summary.push(
        `${String(turns).padStart(5)} turns  i (${mode}) ${fmt(ms)}  floor ${fmt(floorMs)}  difference ${fmt(diff)} ms/turn;  p10: i ${fmt(p10)}, floor ${fmt(floorP10)}, difference ${fmt(p10 - floorP10)};  start ${fmt(start, 0)} ms, whole run ${fmt(wall, 0)} ms`,
      );
    }
  }
  console.log(`\nsummary (target: difference ≤ 3 ms/turn, flat in the number of turns)`);
  for (const s of summary) console.log(`  ${s}`);
} finally {
  await mock.close();
}
