// Compaction latency through real worker processes: baseline budget, plan, local summary (the example
// replacement compactor), postprocess, reference snapshots, candidate checks and the atomic commit, for
// three history sizes to show linear growth. Target: ≤ 100 ms median for 2,000 messages / ~1M tokens.
// Prints medians per size and where the time goes. Usage: bun scripts/bench/compaction.ts [runs]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompactionController } from "../../src/compaction/controller.ts";
import type { CompactionRecord } from "../../src/compaction/schemas.ts";
import type { History } from "../../src/history/schema.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import type { Provider } from "../../src/provider/types.ts";
import { Session } from "../../src/session/session.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import type { HookEvent } from "../../src/worker/protocol.ts";
import type { HookData, HookRunner } from "../../src/worker/types.ts";
import { benchHistory } from "./history-gen.ts";
import { fmt, median, report } from "./stats.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const runs = Number(process.argv[2] ?? 15);
const SIZES: [messages: number, tokens: number][] = [
  [500, 250_000],
  [1000, 500_000],
  [2000, 1_000_000],
];

const noModel: Provider = {
  name: "openai",
  stream: () => Promise.reject(new Error("the local route must not call the model")),
};

/** Times every hook call by event: where the time goes. */
class TimedHooks implements HookRunner {
  readonly times = new Map<string, number[]>();
  constructor(private readonly inner: HookRunner) {}
  hasHook(e: HookEvent) {
    return this.inner.hasHook(e);
  }
  async runHook(e: HookEvent, d: HookData) {
    const t0 = performance.now();
    try {
      return await this.inner.runHook(e, d);
    } finally {
      // The candidate's budget reading is small; label it apart from the full-history baseline.
      const size = Array.isArray(d.history) ? (d.history.length > 100 ? "full history" : "candidate") : "";
      this.add(size ? `${e} (${size})` : e, performance.now() - t0);
    }
  }
  add(name: string, ms: number) {
    const list = this.times.get(name) ?? [];
    list.push(ms);
    this.times.set(name, list);
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
const self = [process.execPath, join(ROOT, "src", "cli", "main.ts")];
const manifest = generateManifest({
  profile: "compact",
  configDir,
  plugins: {},
  bindings: {
    compact: {
      exec: [process.execPath, join(ROOT, "examples", "local-compactor", "main.ts"), "--keep", "4"],
    },
  },
  self,
});
const host = new WorkerHost(manifest, { workspace, configDir });
await host.start();
const hooks = new TimedHooks(host);

const medians: [number, number][] = [];
try {
  for (const [messages, tokens] of SIZES) {
    const history: History = benchHistory(messages, tokens);
    const mb = Buffer.byteLength(JSON.stringify(history)) / 1e6;
    hooks.times.clear();
    const totals: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const session = Session.create({ dataDir, workspace });
      session.checkpoint(history);
      const commit = session.commitCompaction.bind(session);
      session.commitCompaction = (b: History, a: History, r: CompactionRecord) => {
        const t0 = performance.now();
        commit(b, a, r);
        hooks.add("commit (.precompact.json, history.json, events.jsonl)", performance.now() - t0);
      };
      const controller = new CompactionController({
        hooks,
        provider: noModel,
        model: { name: "bench", context_window: 1_200_000, max_output_tokens: 32_000 },
        policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
        workspace,
        session,
        emit: () => {},
      });
      const t0 = performance.now();
      const out = await controller.compactNow(history, []);
      const ms = performance.now() - t0;
      if (out.length >= history.length) throw new Error("compaction did not shrink the history");
      if (i >= 2) totals.push(ms); // the first runs warm up the JIT in both processes
      rmSync(session.dir, { recursive: true, force: true });
    }
    console.log(`\n${messages} messages, ~${tokens / 1000}k tokens, ${fmt(mb, 1)} MB of history JSON`);
    report("  compaction (plan + local summary + validation + commit)", totals, "ms", 1);
    for (const [name, samples] of hooks.times) {
      const tail = samples.slice(-runs);
      console.log(`    ${name.padEnd(54)} median ${fmt(median(tail), 1)} ms`);
    }
    medians.push([messages, median(totals)]);
  }
  const [first, last] = [medians[0], medians[medians.length - 1]];
  if (first && last) {
    console.log(
      `\ngrowth: ${first[0]} → ${last[0]} messages (×${last[0] / first[0]}) took ×${fmt(last[1] / first[1], 2)} the time (linear would be ×${last[0] / first[0]})`,
    );
  }
} finally {
  await host.close();
  for (const d of [configDir, dataDir, workspace]) rmSync(d, { recursive: true, force: true });
}
