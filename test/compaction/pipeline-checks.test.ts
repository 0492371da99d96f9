// The checks a compactor cannot bypass: where it may cut, and what summaries and candidates the core
// accepts. Each rejection must commit nothing and never fall back to another route.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { History } from "../../src/contract/history.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import {
  closedAfterEach,
  expectNothingCommitted,
  fixtureBinding,
  fixtureRig,
  lastOf,
  makeRig,
  openAiProvider,
  syntheticHistory,
} from "./helpers.ts";

const t = closedAfterEach();

describe("cuts a compactor may not make", () => {
  const history = syntheticHistory({ turns: 6 }); // 25 messages; 2 = assistant call, 3 = its tool result
  for (const [cut, why] of [
    ["1", /at least 2/],
    ["0", /at least 2/],
    ["-3", /at least 2/],
    ["25", /below the history length 25/],
    ["99", /below the history length/],
    ["2.5", /integer/],
    ["3", /tool message/],
  ] as const) {
    test(`cut ${cut} is refused and nothing is committed`, async () => {
      t.rig = fixtureRig([`--cut=${cut}`]);
      await expectNothingCommitted(t.rig, history, "compact_plan", why);
      expect(t.rig.records().map((r) => r.event)).toEqual(["compact_plan"]);
    });
  }

  test("a cut that would split a tool batch is refused", async () => {
    // An assistant message with two calls: cutting at its second result would orphan it from the call.
    const h: History = [
      { role: "system", content: "sys" },
      { role: "user", content: "read two files" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "a", name: "read", arguments: '{"path":"a"}' },
          { id: "b", name: "read", arguments: '{"path":"b"}' },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "A" },
      { role: "tool", tool_call_id: "b", content: "B" },
      { role: "assistant", content: "done" },
      { role: "user", content: "next" },
    ];
    t.rig = fixtureRig(["--cut", "4"]);
    await expectNothingCommitted(t.rig, h, "compact_plan", /history\[4\] is a tool message/);
  });

  test("a compactor that declines a manual compaction says so", async () => {
    t.rig = fixtureRig(["--cut", "null"]);
    const history2 = syntheticHistory({ turns: 6 });
    t.rig.session.checkpoint(history2);
    await expect(t.rig.controller().compactNow(history2, [])).rejects.toThrow(/declined/);
    expect(lastOf(t.rig.events, "compaction")?.phase).toBe("skipped");
    expect(t.rig.onDisk().precompact).toBeUndefined();
  });
});

describe("summaries the core rejects", () => {
  const history = syntheticHistory({ turns: 12 });
  for (const [mode, step, why] of [
    [
      "number",
      "before_compact",
      /worker "compact" failed on event "before_compact": invalid reply: field summary: .*expected string/,
    ],
    ["empty", "before_compact", /nonempty string/],
    ["blank", "before_compact", /nonempty string/],
    ["huge", "after_compact", /oversized/],
    ["bloat", "validate", /does not reduce/],
  ] as const) {
    test(`${mode} summary: rejected at ${step}, nothing committed, no fallback`, async () => {
      t.rig = fixtureRig(["--summary", mode]);
      t.mock = await startMockServer({ script: [] });
      await expectNothingCommitted(t.rig, history, step, why, { provider: openAiProvider(t.mock.url) });
      // Malformed means failure, never a fallback to the model route.
      expect(t.mock.requests.length).toBe(0);
    });
  }

  test("a malformed candidate message is rejected by the history validation, naming the module and field", async () => {
    t.rig = fixtureRig(["--bad-candidate"]);
    await expectNothingCommitted(
      t.rig,
      history,
      "before_compact_commit",
      /worker "compact" failed on event "before_compact_commit": the candidate history is invalid: history\[1\]: field role/,
    );
  });

  test("a candidate that rewrites the recent suffix is rejected, naming the module", async () => {
    t.rig = fixtureRig(["--edit-suffix"]);
    await expectNothingCommitted(
      t.rig,
      history,
      "before_compact_commit",
      /worker "compact" .*changed the recent suffix/,
    );
  });
});

describe("what a budget provider cannot decide", () => {
  test("a cut and state left in budget output never reach compact_plan", async () => {
    const leaky = join(import.meta.dirname, "fixtures", "leaky-budget.ts");
    t.rig = makeRig({
      modules: ["budget", "compact"],
      bindings: (configDir) => ({
        budget: { exec: [process.execPath, leaky] },
        compact: fixtureBinding("--record", join(configDir, "record.jsonl"), "--cut=null"),
      }),
    });
    const history = syntheticHistory({ turns: 6 });
    t.rig.session.checkpoint(history);
    await expect(t.rig.controller().compactNow(history, [])).rejects.toThrow(/declined/);
    const plan = t.rig.records().find((r) => r.event === "compact_plan");
    expect(plan).toMatchObject({ cut: null, state: null });
    expect(plan?.keys).toContain("budget");
    expect(t.rig.onDisk().precompact).toBeUndefined();
  });
});
