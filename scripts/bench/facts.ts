// What long sessions forget, and what compaction costs per turn. Each run is one prompt followed by N
// tool turns against the mock model (32k window, 600-line tool outputs, one planted fact per output, an
// ideal summariser that writes back every fact it is shown), through the real agent loop and the
// built-in budget and compact workers. Printed per run: facts kept in the final request, summary
// requests (model requests without tools: summaries, chunks, continuations, condensing), compactions by
// route, the median wall time per turn over the first and the last tenth of the run (flat = the cost per
// turn does not grow with the session), and compactions per 100 turns through the run. The floor is a tool turn with a one-line output: the
// loop, a worker round trip and a checkpoint, no compaction.
// Usage: bun scripts/bench/facts.ts [turns,turns,…] [--prune-only]   (runs up to 1,000 turns also without prune)
import { runFactsSession } from "../../test/fixtures/facts-session.ts";
import { fmt, median } from "./stats.ts";

const sizes = (process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "40,300,1000,3000")
  .split(",")
  .map(Number);
const compare = !process.argv.includes("--prune-only");

const floor = await runFactsSession({ turns: 40, contextWindow: 10_000_000, lines: 1 });
console.log(`floor (40 one-line tool turns, no compaction): median ${fmt(median(floor.turnMs))} ms/turn`);
console.log(
  "turns | prune | facts kept | summary requests | compactions (prune/summary) | ms/turn first 10% | ms/turn last 10% | wall s",
);
for (const turns of sizes) {
  for (const prune of compare && turns <= 1000 ? [true, false] : [true]) {
    const r = await runFactsSession({ turns, contextWindow: 32_000, compact: { prune: { enabled: prune } } });
    const tenth = Math.max(1, Math.floor(r.turnMs.length / 10));
    const pruned = r.compactions.filter((c) => c.route === "prune").length;
    console.log(
      [
        turns,
        prune ? "on" : "off",
        `${r.kept}/${turns}`,
        r.summaryRequests,
        `${r.compactions.length} (${pruned}/${r.compactions.length - pruned})`,
        fmt(median(r.turnMs.slice(0, tenth))),
        fmt(median(r.turnMs.slice(-tenth))),
        fmt(r.wallMs / 1000, 1),
      ].join(" | "),
    );
    if (turns >= 300) {
      const per100 = Array.from({ length: Math.ceil(turns / 100) }, () => 0);
      for (const c of r.compactions) {
        const k = Math.min(per100.length - 1, Math.floor(c.turn / 100));
        per100[k] = (per100[k] ?? 0) + 1;
      }
      console.log(`  compactions per 100 turns: ${per100.join(" ")}`);
    }
    if (r.failures.length > 0) console.log(`  failures: ${r.failures.slice(0, 3).join(" / ")}`);
  }
}
