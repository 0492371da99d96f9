// kill -9 of the real CLI in a compacting session, at each write/fsync/rename/link of the core around its
// first compaction commit (the steps the old write order lost a batch at) and at a spread of others.
// Every time: the session reopens as exactly what its log holds, every tool result the model had been
// sent is still in the folder, and `-c` carries on from it.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { EventsLog, replayEvents } from "../../src/session/events-log.ts";
import { allMessages } from "../../src/session/recover.ts";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/index.ts";

const TURNS = 14;
const rigs: Rig[] = [];
afterAll(async () => {
  await Promise.all(rigs.map((r) => r.close()));
});

function isSummaryRequest(req: RecordedRequest): boolean {
  return !(req.body as { tools?: unknown[] }).tools?.length;
}

/** A compacting tool session; `served()` is how many tool turns the model has been answered with. */
async function compactingRig(): Promise<{ rig: Rig; served: () => number }> {
  let turns = 0;
  const script = (req: RecordedRequest): MockStep => {
    if (isSummaryRequest(req)) return { text: `## Goal\nList.\n## Progress\nran ${turns} listings.` };
    if (turns < TURNS) {
      turns++;
      return {
        tool_calls: [{ name: "bash", arguments: { command: `seq 1 150 | sed 's/^/line ${turns} /'` } }],
      };
    }
    return { text: "finished" };
  };
  const rig = await makeRig({ script, contextWindow: 12_000, profile: "compact" });
  rigs.push(rig);
  return { rig, served: () => turns };
}

function sessionDir(rig: Rig): string {
  const ids = readdirSync(rig.dataDir).filter((d) => /^\d{8}T/.test(d));
  expect(ids).toHaveLength(1);
  return join(rig.dataDir, ids[0] as string);
}

const ARGS = ["-p", "list many times", "--approve", "all", "--max-turns", "100"];

describe("kill -9 of a compacting CLI session", () => {
  test("at every step around the first compaction commit, and a spread of others", async () => {
    const probe = await compactingRig();
    const log = join(probe.rig.root, "boundaries.txt");
    const clean = await probe.rig.run(ARGS, { I_TEST_FS_BOUNDARIES: log });
    expect(clean.code).toBe(0);
    const steps = readFileSync(log, "utf8").trim().split("\n");
    const firstPrecompact = steps.findIndex((l) => l.includes(".precompact.json"));
    expect(firstPrecompact).toBeGreaterThan(0);
    const around = Array.from({ length: 10 }, (_, i) => firstPrecompact - 3 + i + 1).filter((k) => k >= 1);
    const spread = [1, 5, Math.floor(steps.length / 3), Math.floor((2 * steps.length) / 3), steps.length];
    const ks = [...new Set([...around, ...spread])].sort((a, b) => a - b);

    for (const k of ks) {
      const { rig, served } = await compactingRig();
      const r = await rig.run(ARGS, { I_TEST_KILL_AT: String(k) });
      expect([k, r.code]).toEqual([k, 128]); // killed by a signal
      const dir = sessionDir(rig);
      const id = dir.slice(dir.lastIndexOf("/") + 1);
      const events = join(dir, "events.jsonl");
      if (!existsSync(events) || statSync(events).size === 0) {
        // Killed before the session's first line was written: the model was never asked anything.
        expect(rig.mock.requests).toHaveLength(0);
        continue;
      }
      const h = Session.open(rig.dataDir, id).history();
      if (h.length > 0) expect(validateHistory(h, { allowPendingToolCalls: true })).toBeUndefined();
      // Exactly what the log holds: nothing the log acknowledged is dropped.
      expect(h).toEqual(replayEvents(new EventsLog(join(dir, "events.jsonl")).read().events).history);
      // Every tool turn whose result the model was sent (all but the one in flight) is in the folder.
      const results = allMessages(dir)
        .filter((m) => m.role === "tool")
        .map((m) => /line (\d+) /.exec(typeof m.content === "string" ? m.content : "")?.[1]);
      for (let t = 1; t < served(); t++) expect([k, results.includes(String(t))]).toEqual([k, true]);
    }
  }, 300_000);
});
