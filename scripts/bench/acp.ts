// `i acp`'s costs. (1) Start: spawn → initialize answered → session/new answered, per process, with the
// `i --version` floor measured in the same run (target: session/new ≤ 150 ms compiled). (2) Per turn: the
// same S0 run (N one-line bash turns, then an answer) through ACP and through `-p --json`; the figure is
// the median gap between consecutive model requests of each, and their difference is what ACP adds per
// turn (target ≤ 1 ms). The peak PSS of each run's whole process tree is printed too (target: within 5 MB).
//   bun scripts/bench/acp.ts [--runs 10] [--turns 100] [--mode compiled|source]
import { type ChildProcess, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { connect, startAcp } from "./acp-client.ts";
import {
  agentArgv,
  benchDirs,
  benchMock,
  describePeak,
  parseModes,
  printArgs,
  runSampled,
  s0,
} from "./agent-run.ts";
import { fmt, median, quantile } from "./stats.ts";
import { mb, type TreePeak, watchTree } from "./tree-rss.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    turns: { type: "string", default: "100" },
    mode: { type: "string", default: "compiled" },
  },
});
const RUNS = Number(values.runs);
const TURNS = Number(values.turns);
const [MODE = "compiled"] = parseModes(values.mode);
const argv = agentArgv(MODE);
const mock = await benchMock();

const spawnAcp = (dirs: ReturnType<typeof benchDirs>) => startAcp(argv, mock.url, dirs.workspace, dirs.env);

const exit = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null ? r() : child.on("exit", () => r())));

// ---- (1) start -------------------------------------------------------------------------------------
const floor: number[] = [];
const init: number[] = [];
const created: number[] = [];
const dirs = benchDirs({ contextWindow: 1_000_000 });
mock.reset(() => ({ text: "ok" }));
for (let i = 0; i < RUNS + 2; i++) {
  const [file, ...args] = argv as [string, ...string[]];
  const f0 = performance.now();
  spawnSync(file, [...args, "--version"], { env: dirs.env });
  const f = performance.now() - f0;
  const t0 = performance.now();
  const child = spawnAcp(dirs);
  const conn = connect(child);
  await conn.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const t1 = performance.now();
  await conn.request("session/new", { cwd: dirs.workspace, mcpServers: [] });
  const t2 = performance.now();
  child.stdin?.end();
  await exit(child);
  // the first two are warm-up (page cache, the build's first start)
  if (i < 2) continue;
  floor.push(f);
  init.push(t1 - t0);
  created.push(t2 - t0);
}
console.log(`acp start (${MODE}, ${RUNS} runs, medians):`);
console.log(`  i --version (floor)           ${fmt(median(floor))} ms`);
console.log(`  spawn → initialize answered   ${fmt(median(init))} ms`);
console.log(`  spawn → session/new answered  ${fmt(median(created))} ms   (target ≤ 150 ms)`);

// ---- (2) per turn ------------------------------------------------------------------------------------
/**
 * How often the tree's memory is sampled. The ACP run takes about a second, `-p` two or three: sampled
 * every 500 ms they got 3 and 6 samples, and the peak PSS each caught (the heap between collections) was
 * chance, unevenly; every 100 ms each gets 10 to 50, for a few reads of /proc per sample.
 */
const SAMPLE_MS = 100;

function gaps(): { med: number; p10: number } {
  const at = mock.arrivals;
  if (at.length !== TURNS + 1) throw new Error(`${at.length} model requests, expected ${TURNS + 1}`);
  const g = at.slice(1).map((t, i) => t - (at[i] as number));
  return { med: median(g), p10: quantile(g, 0.1) };
}

async function printRun(): Promise<{ med: number; p10: number; peak: TreePeak | undefined }> {
  const d = benchDirs({ contextWindow: 1_000_000 });
  mock.reset(s0(TURNS));
  const r = await runSampled(
    [...argv, ...printArgs(mock.url, d, TURNS + 5), "--json"],
    d.env,
    d.workspace,
    SAMPLE_MS,
  );
  d.remove();
  if (r.code !== 0) throw new Error(`-p --json exited ${r.code}: ${r.stderr}`);
  return { ...gaps(), peak: r.memory };
}

async function acpRun(): Promise<{ med: number; p10: number; peak: TreePeak | undefined }> {
  const d = benchDirs({ contextWindow: 1_000_000 });
  mock.reset(s0(TURNS));
  const child = spawnAcp(d);
  const watch = watchTree(child.pid as number, SAMPLE_MS);
  const conn = connect(child);
  await conn.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const s = await conn.request("session/new", { cwd: d.workspace, mcpServers: [] });
  const r = await conn.request("session/prompt", {
    sessionId: s.sessionId,
    prompt: [{ type: "text", text: "run the commands" }],
  });
  if (r.stopReason !== "end_turn") throw new Error(`acp stopped with ${r.stopReason}`);
  const g = gaps();
  child.stdin?.end();
  await exit(child);
  const peak = watch.stop();
  d.remove();
  return { ...g, peak };
}

const rows: { kind: string; med: number; p10: number; pss: number }[] = [];
for (let i = 0; i < Math.max(1, Math.min(RUNS, 5)); i++)
  for (const [kind, run] of [
    ["-p --json", printRun],
    ["acp", acpRun],
  ] as const) {
    const r = await run();
    rows.push({ kind, med: r.med, p10: r.p10, pss: r.peak ? mb(r.peak.pssPeak) : Number.NaN });
    if (i === 0) console.log(`  ${kind}: ${describePeak(r.peak)}`);
  }
const of = (kind: string, k: "med" | "p10" | "pss") =>
  median(rows.filter((r) => r.kind === kind).map((r) => r[k]));
console.log(`per turn (${MODE}, S0 ${TURNS} turns, median of runs):`);
console.log(
  `  -p --json   ${fmt(of("-p --json", "med"))} ms/turn (p10 ${fmt(of("-p --json", "p10"))}), PSS ${fmt(of("-p --json", "pss"), 1)} MB`,
);
console.log(
  `  acp         ${fmt(of("acp", "med"))} ms/turn (p10 ${fmt(of("acp", "p10"))}), PSS ${fmt(of("acp", "pss"), 1)} MB`,
);
console.log(
  `  acp − -p    ${fmt(of("acp", "med") - of("-p --json", "med"))} ms/turn (target ≤ 1), PSS ${fmt(of("acp", "pss") - of("-p --json", "pss"), 1)} MB (target ≤ 5)`,
);
dirs.remove();
await mock.close();
