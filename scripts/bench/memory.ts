// Peak memory of the whole process tree of `i -p` (core + worker processes + the commands it runs), sampled
// from /proc every 20 ms (tree-rss.ts). Two runs against the in-process mock model:
//   S1     40 tool turns whose output fills a 12k-token window, so the session compacts several times
//          (model-written summaries through the built-in compact module)
//   S0     N one-line bash tool turns (default 1,000) in a window that never fills
// Target: ≤ 110 MB peak for both. Prints the median over runs and the last run's per-process breakdown.
//   bun scripts/bench/memory.ts [--runs 3] [--turns 1000] [--mode compiled,source] [--profile standard]
import { parseArgs } from "node:util";
import type { RecordedRequest } from "../../test/fixtures/mock-server/index.ts";
import {
  agentArgv,
  benchDirs,
  benchMock,
  describePeak,
  parseModes,
  printArgs,
  type Responder,
  runSampled,
  s0,
} from "./agent-run.ts";
import { fmt, median } from "./stats.ts";
import { mb, type TreePeak } from "./tree-rss.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    turns: { type: "string", default: "1000" },
    mode: { type: "string", default: "compiled" },
    profile: { type: "string", default: "standard" },
  },
});
const RUNS = Number(values.runs);
const MODES = parseModes(values.mode);

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

const mock = await benchMock();
try {
  console.log(`peak RSS of the whole process tree, profile ${values.profile}, ${RUNS} runs each`);
  for (const sc of SCENARIOS) {
    for (const mode of MODES) {
      const peaks: TreePeak[] = [];
      for (let run = 0; run < RUNS; run++) {
        const dirs = benchDirs({ contextWindow: sc.window, profile: values.profile });
        try {
          mock.reset(sc.respond(sc.turns));
          const r = await runSampled(
            [...agentArgv(mode), ...printArgs(mock.url, dirs, sc.turns * 2 + 10)],
            dirs.env,
            dirs.workspace,
          );
          if (r.code !== 0) throw new Error(`i (${mode}) exited ${r.code}: ${r.stderr.trim()}`);
          if (r.memory) peaks.push(r.memory);
        } finally {
          dirs.remove();
        }
      }
      const xs = peaks.map((p) => mb(p.peak));
      const pss = peaks.map((p) => mb(p.pssPeak));
      console.log(
        `${sc.name}, i (${mode}): median peak RSS ${fmt(median(xs), 1)} MB (runs: ${xs.map((x) => fmt(x, 1)).join(", ")}), PSS ${fmt(median(pss), 1)} MB`,
      );
      console.log(`  last run: ${describePeak(peaks[peaks.length - 1])}`);
    }
  }
} finally {
  await mock.close();
}
