// The cost of comparing a hook reply with what it was sent, field by field, by value (the check every hook
// step makes, src/worker/kept-fields.ts), on a before_request of a long session. Three figures, each the
// median of many runs: the check when the history came back echoed (the reply holds the very message
// objects sent, as the host's echo decoder gives them), the check on a fresh copy (a worker that rewrote
// the array: deep comparison all the way down), and, as the floor it must stay well under, JSON.parse of
// the reply line itself, which every reply pays anyway. Usage:
//   bun scripts/bench/hook-kept-fields.ts [messages] [runs]
import { nowNs } from "../../src/runtime/runtime.ts";
import { keptFieldProblem } from "../../src/worker/kept-fields.ts";
import { report } from "./stats.ts";

const count = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 200);

const messages = Array.from({ length: count }, (_, i) =>
  i % 2
    ? {
        role: "assistant",
        content: [{ type: "text", text: `reply ${i} `.repeat(40) }],
        tool_calls: [{ id: `c${i}`, name: "read", arguments: { path: `src/f${i}.ts` } }],
      }
    : { role: "tool", tool_call_id: `c${i - 1}`, content: `line ${i}\n`.repeat(30) },
);
const sent = { provider: "anthropic", model: "claude-sonnet", messages, hints: {} };
const line = JSON.stringify({ id: 1, data: { ...sent, hints: { cache_breakpoints: [1] } } });
const echoed = { ...sent, messages: [...messages], hints: { cache_breakpoints: [1] } };
const copied = JSON.parse(line).data as Record<string, unknown>;

function time(f: () => unknown): number[] {
  for (let i = 0; i < 20; i++) f();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = nowNs();
    f();
    out.push(Number(nowNs() - t) / 1e6);
  }
  return out;
}

console.log(
  `before_request with ${count} messages (${(line.length / 1e6).toFixed(2)} MB line), ${runs} runs`,
);
const check = (reply: Record<string, unknown>) => {
  if (keptFieldProblem("before_request", sent, sent, reply) !== undefined) throw new Error("unexpected");
};
report(
  "kept-fields check, echoed history",
  time(() => check(echoed)),
  "ms",
  4,
);
report(
  "kept-fields check, fresh copy (deep)",
  time(() => check(copied)),
  "ms",
  3,
);
report(
  "floor: JSON.parse of the reply line",
  time(() => JSON.parse(line)),
  "ms",
  3,
);
