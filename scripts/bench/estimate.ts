// Estimation throughput: how fast the built-in estimator reads a history (MB of history JSON per second).
// Target ≥ 50 MB/s. Usage: bun scripts/bench/estimate.ts [runs]
import { estimateRequest } from "../../src/lib/estimator.ts";
import { computeBudget } from "../../workers/budget/compute.ts";
import { benchHistory } from "./history-gen.ts";
import { report } from "./stats.ts";

const runs = Number(process.argv[2] ?? 30);
const policy = { trigger_ratio: 0.85, rearm_ratio: 0.7 };
const model = { name: "bench", context_window: 2_000_000, max_output_tokens: 32_000 };

function bench(name: string, history: ReturnType<typeof benchHistory>): void {
  const mb = Buffer.byteLength(JSON.stringify(history)) / 1e6;
  for (let i = 0; i < 3; i++) estimateRequest(history, undefined, [], undefined);
  const rates: number[] = [];
  const budgets: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    estimateRequest(history, undefined, [], undefined);
    rates.push(mb / ((performance.now() - t0) / 1000));
    const t1 = performance.now();
    computeBudget({
      model,
      policy,
      history,
      usage: { input_tokens: 900_000, messages: history.length - 10 },
    });
    budgets.push(performance.now() - t1);
  }
  console.log(`${name}: ${history.length} messages, ${mb.toFixed(1)} MB of JSON`);
  report("  estimate throughput", rates, "MB/s", 0);
  report("  full budget computation (estimate + calibration + recommendation)", budgets, "ms");
}

bench("ASCII session", benchHistory(2000, 1_000_000));
const mixed = benchHistory(2000, 1_000_000).map((m) =>
  m.role === "tool" && typeof m.content === "string"
    ? { ...m, content: `${m.content}\n// 注释：保留结果 — résumé` }
    : m,
);
bench("with a non-ASCII line at the end of every tool result", mixed);
const cjk = benchHistory(2000, 1_000_000).map((m) =>
  m.role === "tool" && typeof m.content === "string"
    ? { ...m, content: "保留计算结果以便下一步使用。".repeat(m.content.length / 28) }
    : m,
);
bench("tool results entirely in CJK (the per-character path)", cjk);
