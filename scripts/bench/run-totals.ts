// What the totals on `i -p --json`'s last event cost, in process: RunTotals sees every event of the run
// (per turn: the assistant reply with its usage, the tool call, its output, its result) and builds the
// `done` event once at the end. Against the floor (the same events through a function that does nothing),
// interleaved, the median of several runs: the per-turn figure is what `see` adds to a turn's events, the
// per-run figure what `totals` and `done` take at the end.
//   bun scripts/bench/run-totals.ts [--turns 100] [--runs 200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RunTotals } from "../../src/agent/run-totals.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import { fmt, median } from "./stats.ts";

const { values } = parseArgs({
  options: { turns: { type: "string", default: "100" }, runs: { type: "string", default: "200" } },
});
const TURNS = Number(values.turns);
const RUNS = Number(values.runs);
const dataDir = mkdtempSync(join(tmpdir(), "i-bench-totals-"));
const price = { input: 3, output: 15 };

/** One bash tool turn's events, as a run emits them. */
function turnEvents(k: number): AgentEvent[] {
  const id = `call_${k}`;
  return [
    {
      type: "assistant",
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ id, name: "bash", arguments: `{"command":"echo turn ${k}"}` }],
        meta: { usage: { input_tokens: 1200 + k * 40, output_tokens: 20, cache_read_tokens: 1100 } },
      },
    },
    { type: "tool_call", id, name: "bash", arguments: `{"command":"echo turn ${k}"}` },
    { type: "tool_output", id, text: `turn ${k}\n` },
    { type: "tool_result", id, name: "bash", is_error: false, content: `turn ${k}`, duration_ms: 2 },
  ] as AgentEvent[];
}
const events = Array.from({ length: TURNS }, (_, k) => turnEvents(k)).flat();
const done = {
  type: "done",
  text: "all commands ran",
  turns: TURNS,
  usage: { input_tokens: 1, output_tokens: 1 },
} as Extract<AgentEvent, { type: "done" }>;

let sink = 0;
/** One run's events through `see`, then the end's `done`: [ms for the events, ms for the end]. */
function once(withTotals: boolean): [number, number] {
  const totals = new RunTotals(() => price, dataDir);
  const see = withTotals
    ? (ev: AgentEvent) => totals.see(ev)
    : (ev: AgentEvent) => {
        sink += ev.type.length;
      };
  const t0 = performance.now();
  for (const ev of events) see(ev);
  const t1 = performance.now();
  const last = withTotals ? totals.done(done, "01JBENCHSESSION") : done;
  sink += JSON.stringify(last).length;
  return [t1 - t0, performance.now() - t1];
}

for (let i = 0; i < 50; i++) once(i % 2 === 0); // warm up
const withSee: number[] = [];
const floorSee: number[] = [];
const withEnd: number[] = [];
const floorEnd: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const [a, b] = once(true);
  const [c, d] = once(false);
  withSee.push(a);
  withEnd.push(b);
  floorSee.push(c);
  floorEnd.push(d);
}
rmSync(dataDir, { recursive: true, force: true });
const us = (ms: number) => fmt(ms * 1000, 3);
const perTurn = (median(withSee) - median(floorSee)) / TURNS;
console.log(`--json totals, ${TURNS} bash turns (${events.length} events), median of ${RUNS} runs`);
console.log(
  `  per turn: see() ${us(median(withSee) / TURNS)} µs, floor ${us(median(floorSee) / TURNS)} µs: added ${us(perTurn)} µs`,
);
console.log(
  `  per run: totals + done ${us(median(withEnd))} µs, floor (the plain done) ${us(median(floorEnd))} µs (${sink > 0 ? "ok" : ""})`,
);
