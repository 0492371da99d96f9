// Size of events.jsonl and cost of a compaction commit when a session compacts on most turns (small
// windows, big tool outputs). Part 1, synthetic: N turns, each a checkpoint of one tool turn (8 KB
// output) then a prune compaction (every output but the last two shortened), through Session directly;
// printed: log size at the end, median commitCompaction time over the first and last tenth, and the
// floor, a checkpoint of the same turn. Part 2: the facts session (real agent loop, built-in compact
// worker, 32k window): log size at the end. `--before DIR` runs every measurement with the checkout in
// DIR too, interleaved turn by turn (part 1) and run after run (part 2), for an A/B in one run.
// Usage: bun scripts/bench/event-log.ts [--before DIR] [--turns N] [--facts N (0: skip)]
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { History, Message } from "../../src/contract/history.ts";
import { fmt, median } from "./stats.ts";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
if (args.includes("--before") && !opt("--before")) {
  console.error("event-log.ts: --before needs a checkout directory, e.g. --before /tmp/before");
  process.exit(2);
}
const turns = Number(opt("--turns") ?? "1000");
const factsTurns = Number(opt("--facts") ?? "300");
const trees: [string, string][] = [["this", join(import.meta.dirname, "..", "..")]];
const before = opt("--before");
if (before) trees.push(["before", resolve(before)]);

interface SessionLike {
  dir: string;
  checkpoint(h: History): void;
  commitCompaction(before: History, after: History, record: object): void;
}
interface SessionClass {
  create(o: { dataDir: string; workspace: string }): SessionLike;
}

const ms = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

function turnMessages(t: number): Message[] {
  const id = `call_${t}`;
  return [
    { role: "user", content: `next file ${t}` },
    { role: "assistant", content: "", tool_calls: [{ id, name: "read", arguments: `{"path":"f${t}"}` }] },
    { role: "tool", tool_call_id: id, content: `${t}: ${"x".repeat(8000)}` },
    { role: "assistant", content: `read ${t}` },
  ];
}

const root = mkdtempSync(join(tmpdir(), "i-bench-eventlog-"));
try {
  const runs = await Promise.all(
    trees.map(async ([name, dir], i) => {
      const { Session } = (await import(join(dir, "src/session/session.ts"))) as { Session: SessionClass };
      mkdirSync(join(root, `ws${i}`));
      const s = Session.create({ dataDir: join(root, `data${i}`), workspace: join(root, `ws${i}`) });
      return { name, s, commit: [] as number[], floor: [] as number[] };
    }),
  );
  let h: Message[] = [{ role: "system", content: "bench" }];
  for (let t = 0; t < turns; t++) {
    const grown = [...h, ...turnMessages(t)];
    const after = grown.map((m, i) =>
      m.role === "tool" && i < grown.length - 6 && m.content.length > 100 ? { ...m, content: "[pruned]" } : m,
    );
    for (const r of runs) {
      r.floor.push(ms(() => r.s.checkpoint(grown)));
      r.commit.push(ms(() => r.s.commitCompaction(grown, after, { reason: "auto", cut: 0 })));
    }
    h = after;
  }
  const tenth = Math.max(1, Math.floor(turns / 10));
  console.log(
    `part 1: ${turns} turns, a prune compaction after each (history at the end: ${h.length} messages)`,
  );
  console.log(
    "checkout | log MB | commit ms first 10% | commit ms last 10% | floor (checkpoint) ms last 10%",
  );
  for (const r of runs) {
    const mb = statSync(join(r.s.dir, "events.jsonl")).size / 1e6;
    const row = [
      r.name,
      fmt(mb, 2),
      fmt(median(r.commit.slice(0, tenth))),
      fmt(median(r.commit.slice(-tenth))),
    ];
    console.log([...row, fmt(median(r.floor.slice(-tenth)))].join(" | "));
  }
  if (factsTurns > 0) {
    console.log(`part 2: facts session, ${factsTurns} turns, 32k window, prune on`);
    console.log("checkout | log MB | compactions | wall s");
    for (const [name, dir] of trees) {
      const mod = (await import(join(dir, "test/fixtures/facts-session.ts"))) as {
        runFactsSession(o: object): Promise<{ logBytes?: number; compactions: unknown[]; wallMs: number }>;
      };
      const r = await mod.runFactsSession({ turns: factsTurns, contextWindow: 32_000 });
      // An older checkout's fixture may not report the log's size.
      const mb = r.logBytes === undefined ? "n/a" : fmt(r.logBytes / 1e6, 2);
      console.log([name, mb, r.compactions.length, fmt(r.wallMs / 1000, 1)].join(" | "));
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
