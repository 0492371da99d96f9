// A long session end to end: 64 tool turns against the mock model with a small context window. The built-in
// budget and compact workers compact several times (model-written summaries) and the run finishes with a
// valid history, a .precompact.json and compaction events in events.jsonl.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { History } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/index.ts";
import { savedSessionIds } from "../helpers/cli.ts";
import { expectCompactedRun, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const TOOL_TURNS = 64;

function isSummaryRequest(req: RecordedRequest): boolean {
  const body = req.body as { tools?: unknown[] };
  return !body.tools || body.tools.length === 0;
}

for (const provider of ["openai", "anthropic"] as const)
  test(`≥60 tool turns with a small context window compacts several times and finishes (${provider})`, async () => {
    let toolTurns = 0;
    let summaries = 0;
    const script = (req: RecordedRequest): MockStep => {
      if (isSummaryRequest(req)) {
        summaries++;
        return {
          text: `## Goal\nCount files.\n## Progress\nSummary ${summaries}: ran ${toolTurns} listing commands so far.`,
        };
      }
      if (toolTurns < TOOL_TURNS) {
        toolTurns++;
        return {
          tool_calls: [{ name: "bash", arguments: { command: `seq 1 180 | sed 's/^/line ${toolTurns} /'` } }],
        };
      }
      return { text: "finished all turns" };
    };
    rig = await makeRig({ script, contextWindow: 12_000, profile: "compact", provider });
    const r = await rig.run([
      "-p",
      "run the listing many times",
      "--approve",
      "all",
      "--json",
      "--max-turns",
      "100",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const evs = expectCompactedRun(r.stdout, {
      finalText: "finished all turns",
      minCompactions: 3,
      summaries,
    });
    const done = evs.filter((e) => e.type === "compaction" && e.phase === "done");

    const [id] = savedSessionIds(rig.dataDir);
    const dir = join(rig.dataDir, id as string);
    const history = History.parse(JSON.parse(readFileSync(join(dir, "history.json"), "utf8")));
    expect(validateHistory(history)).toBeUndefined();
    expect(history[1]?.meta?.summary).toBe(true);
    const pre = History.parse(JSON.parse(readFileSync(join(dir, ".precompact.json"), "utf8")));
    expect(validateHistory(pre)).toBeUndefined();
    const log = readFileSync(join(dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.filter((e) => e.type === "compaction")).toHaveLength(done.length);
    // nothing lost: every tool result ever produced is in the append-only log
    const toolMessages = log.filter((e) => e.type === "message" && e.message?.role === "tool");
    expect(toolMessages.length).toBe(TOOL_TURNS);
  }, 120_000);
