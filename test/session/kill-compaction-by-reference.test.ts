// kill -9 at every write, fsync, rename and link of a session whose compactions are logged by
// reference (pruning, summaries with kept ranges, whole states in between): the reopened session holds
// the last completed state or the one in flight, the log alone replays to it, every message ever
// checkpointed stays in the log in full, and the session compacts on correctly after the crash.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { EventsLog, replayEvents } from "../../src/session/events-log.ts";
import { allMessages } from "../../src/session/recover.ts";
import { Session } from "../../src/session/session.ts";
import { compactingScenario } from "./fixtures/compacting-scenario.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

const CHILD = join(import.meta.dirname, "fixtures", "compacting-run.ts");
const SEED = 5;
const STEPS = 14;
const dirs: Dirs[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

function run(
  d: Dirs,
  env: Record<string, string>,
  chars: number,
): { lines: string[]; signal: string | null } {
  const r = spawnSync(process.execPath, [CHILD, d.data, d.ws, String(SEED), String(STEPS), String(chars)], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (r.signal === null && r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return { lines: r.stdout.split("\n").filter((l) => l !== ""), signal: r.signal };
}

/** Order-independent text of a message (a parsed message has its schema's key order). */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
    .join(",")}}`;
}

describe("kill -9 around compactions logged by reference", () => {
  // 1,500-character outputs: history.json rewritten at every checkpoint; 30,000: it lags the log.
  test.each([1500, 30_000])(
    "every completed state survives, and the log alone rebuilds it (outputs of %i characters)",
    (chars) => {
      const { steps, states } = compactingScenario(SEED, STEPS, chars);
      const probe = makeDirs();
      dirs.push(probe);
      const log = join(probe.root, "boundaries.txt");
      run(probe, { I_TEST_FS_BOUNDARIES: log }, chars);
      const boundaries = readFileSync(log, "utf8").trim().split("\n");
      // The scenario must exercise both forms, or this test proves nothing about references.
      const id = Session.list(probe.data, probe.ws)[0]?.id;
      const events = readEvents(join(probe.data, id as string)).filter((e) => e.type === "compaction");
      expect(events.some((e) => "pieces" in e)).toBe(true);
      expect(events.some((e) => "history" in e)).toBe(true);
      expect(steps.filter((s) => s === "compaction").length).toBe(events.length);

      for (let k = 1; k <= boundaries.length; k++) {
        const d = makeDirs();
        const { lines, signal } = run(d, { I_TEST_KILL_AT: String(k) }, chars);
        expect(signal).toBe("SIGKILL");
        const sid = lines.find((l) => l.startsWith("id "))?.slice(3);
        const done = Math.max(0, ...lines.filter((l) => l.startsWith("ok ")).map((l) => Number(l.slice(3))));
        if (!sid) {
          d.cleanup();
          continue;
        }
        const s = Session.open(d.data, sid);
        const h = s.history();
        const inFlight = states[Math.min(done + 1, STEPS)] as Message[];
        expect(canon(h) === canon(states[done]) || canon(h) === canon(inFlight)).toBe(true);
        // The log alone replays to the same history.
        const dir = join(d.data, sid);
        const replay = replayEvents(new EventsLog(join(dir, "events.jsonl")).read().events);
        expect(canon(replay.history)).toBe(canon(h));
        // Every message of every completed state is in the log in full (pruned outputs included).
        const ever = new Set(allMessages(dir).map(canon));
        for (let j = 1; j <= done; j++)
          for (const m of states[j] as Message[]) expect(ever.has(canon(m))).toBe(true);
        // Reopening changes nothing, and the session goes on: a prune after the crash replays exactly.
        expect(canon(Session.open(d.data, sid).history())).toBe(canon(h));
        // The first compaction after opening is logged whole, the second by reference.
        const pruned = (text: string) => h.map((m) => (m.role === "tool" ? { ...m, content: text } : m));
        const next = pruned("[pruned again]");
        if (h.length > 0) {
          s.commitCompaction(h, pruned("[pruned after the crash]"), { reason: "auto", cut: 0 });
          s.commitCompaction(pruned("[pruned after the crash]"), next, { reason: "auto", cut: 0 });
          expect("pieces" in (readEvents(dir).at(-1) as object)).toBe(true);
          const again = replayEvents(new EventsLog(join(dir, "events.jsonl")).read().events);
          expect(again.problems).toBe(0);
          expect(canon(again.history)).toBe(canon(next));
          expect(canon(Session.open(d.data, sid).history())).toBe(canon(next));
        }
        // Removed now: hundreds of folders left to afterAll can outlast its timeout under load.
        d.cleanup();
      }
    },
    180_000,
  );
});
