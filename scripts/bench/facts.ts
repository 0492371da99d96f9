// What long sessions forget, and what compaction costs per turn. Each run is one prompt followed by N
// tool turns against the mock model (32k window, 600-line tool outputs, one planted fact per output, an
// ideal summariser that writes back every fact it is shown), through the real agent loop and the
// built-in budget and compact workers. Printed per run: facts kept in the final request, summary
// requests (model requests without tools: summaries, chunks, continuations, condensing), compactions by
// route, the median wall time per turn over the first and the last tenth of the run (flat = the cost per
// turn does not grow with the session), and compactions per 100 turns through the run. The floor is a tool turn with a one-line output: the
// loop, a worker round trip and a checkpoint, no compaction; it is measured before the first run and
// again after each.
// More facts than the window affords cannot all be kept: a summary over its cap has its oldest part
// condensed, and the ideal summariser then keeps the newest facts that fit. "Facts kept" is printed
// against what the ideal summariser kept (the turns less the facts a condensing pass left out), so a fact
// lost by the machinery shows as a difference there.
// Usage: bun scripts/bench/facts.ts [turns,turns,…] [--prune-only] [--before DIR] [--compiled]
//                                    [--window TOKENS] [--lines N]
//   --window and --lines change the 32k window and the 600-line outputs: a small window with long
//   outputs (e.g. --window 16000 --lines 300) keeps every compaction at the hard limit, where what the
//   commit restores must be sized by the room left (once it stopped such a run at turn ~1,140);
//   runs up to 1,000 turns also without prune (unless --prune-only); --before DIR runs each size with the
//   checkout in DIR too (e.g. `git worktree add /tmp/before main`), interleaved, for an A/B in one run;
//   --compiled builds dist/ first and runs the workers as the compiled `i` (the agent loop, the core's
//   part, runs in this process either way).
import { resolve } from "node:path";
import { type FactsOptions, type FactsResult, runFactsSession } from "../../test/fixtures/facts-session.ts";
import { compiledBinary, ensureCompiled } from "./agent-run.ts";
import { fmt, median } from "./stats.ts";

type Run = (opts: FactsOptions) => Promise<FactsResult>;

const args = process.argv.slice(2);
const sizes = (args[0] && !args[0].startsWith("--") ? args[0] : "40,300,1000,3000").split(",").map(Number);
const compare = !args.includes("--prune-only");
const beforeDir = args.includes("--before") ? args[args.indexOf("--before") + 1] : undefined;
if (args.includes("--before") && !beforeDir) {
  console.error("facts.ts: --before needs a checkout directory, e.g. --before /tmp/before");
  process.exit(2);
}
const compiled = args.includes("--compiled");
function wholeFlag(name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (Number.isInteger(v) && v > 0) return v;
  console.error(`facts.ts: ${name} needs a positive whole number, e.g. ${name} ${fallback}`);
  process.exit(2);
}
const contextWindow = wholeFlag("--window", 32_000);
const lines = wholeFlag("--lines", 600);
if (compiled && beforeDir) {
  console.error(
    "facts.ts: --compiled and --before cannot be combined (the other checkout would run from source)",
  );
  process.exit(2);
}
if (compiled) ensureCompiled();
const self = compiled ? { self: [compiledBinary()] } : {};
const checkouts: [string, Run][] = [["this", (opts) => runFactsSession({ ...opts, ...self })]];
if (beforeDir) {
  const mod = (await import(resolve(beforeDir, "test/fixtures/facts-session.ts"))) as {
    runFactsSession: Run;
  };
  checkouts.push(["before", mod.runFactsSession]);
}

const floor = await runFactsSession({ turns: 40, contextWindow: 10_000_000, lines: 1, ...self });
if (compiled) console.log(`workers: ${compiledBinary()}`);
console.log(`floor (40 one-line tool turns, no compaction): median ${fmt(median(floor.turnMs))} ms/turn`);
console.log(
  "checkout | turns | prune | facts kept | of those the ideal summariser kept | summary requests | compactions (prune/summary) | ms/turn first 10% | ms/turn last 10% | wall s",
);
for (const turns of sizes) {
  for (const prune of compare && turns <= 1000 ? [true, false] : [true]) {
    for (const [name, run] of checkouts) {
      const r = await run({ turns, contextWindow, lines, compact: { prune: { enabled: prune } } });
      const tenth = Math.max(1, Math.floor(r.turnMs.length / 10));
      const pruned = r.compactions.filter((c) => c.route === "prune").length;
      console.log(
        [
          name,
          turns,
          prune ? "on" : "off",
          `${r.kept}/${turns}`,
          // Older checkouts do not count what condensing dropped.
          r.condensedAway ? `${r.kept}/${turns - r.condensedAway.length}` : "?",
          r.summaryRequests,
          `${r.compactions.length} (${pruned}/${r.compactions.length - pruned})`,
          fmt(median(r.turnMs.slice(0, tenth))),
          fmt(median(r.turnMs.slice(-tenth))),
          fmt(r.wallMs / 1000, 1),
        ].join(" | "),
      );
      // Older checkouts do not record the turn of each compaction.
      if (turns >= 300 && r.compactions.every((c) => typeof c.turn === "number")) {
        const all = Array.from({ length: Math.ceil(turns / 100) }, () => 0);
        const summaries = [...all];
        for (const c of r.compactions) {
          const k = Math.min(all.length - 1, Math.floor(c.turn / 100));
          all[k] = (all[k] ?? 0) + 1;
          if (c.route !== "prune") summaries[k] = (summaries[k] ?? 0) + 1;
        }
        console.log(
          `  per 100 turns, compactions (of them summaries): ${all.map((n, k) => `${n} (${summaries[k]})`).join(" ")}`,
        );
      }
      if (r.failures.length > 0) console.log(`  failures: ${r.failures.slice(0, 3).join(" / ")}`);
      // The load of a shared machine changes within a long run: the floor again, right after it.
      const after = await runFactsSession({ turns: 40, contextWindow: 10_000_000, lines: 1, ...self });
      console.log(`  floor right after this run: median ${fmt(median(after.turnMs))} ms/turn`);
    }
  }
}
