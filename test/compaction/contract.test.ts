// The worker contract, enforced at run time, and the guarantees a replacement cannot bypass: a handled
// hook returns the complete data object (a reply that lost a field it was sent is that module's error,
// nothing committed); a budget provider preserves its input metadata; the candidate must fit the budget,
// be estimated by the same estimator, and keep the system message; observers hear of the compaction's
// checkpoint; and a local summary skips only the summary request, never the agent's own request.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BudgetCheckError } from "../../src/compaction/errors.ts";
import type { History } from "../../src/contract/history.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import {
  agentFor,
  closedAfterEach,
  expectNothingCommitted,
  fixtureBinding,
  fixtureRig,
  historyAt,
  makeRig,
  syntheticHistory,
  textOf,
} from "./helpers.ts";

const WINDOW = { contextWindow: 12_000, maxOutput: 2_000 };
const HARD = 10_000;
const LEAKY = join(import.meta.dirname, "fixtures", "leaky-budget.ts");

const t = closedAfterEach();

describe("complete replies", () => {
  for (const event of ["compact_plan", "before_compact", "after_compact", "before_compact_commit"] as const)
    test(`a ${event} reply that lost fields it was sent is the module's error; nothing is committed`, async () => {
      t.rig = fixtureRig(["--drop-fields", event]);
      await expectNothingCommitted(
        t.rig,
        syntheticHistory({ turns: 12 }),
        event,
        new RegExp(
          `worker "compact" failed on event "${event}": the reply lost the field "\\w+" it was sent`,
        ),
      );
    });

  test("a budget provider that rewrites its model/policy metadata is refused, in a compaction and before a request", async () => {
    t.rig = makeRig({
      modules: ["budget", "compact"],
      bindings: {
        budget: { exec: [process.execPath, LEAKY, "--rewrite-metadata"] },
        compact: fixtureBinding(),
      },
    });
    await expectNothingCommitted(
      t.rig,
      syntheticHistory({ turns: 12 }),
      "budget",
      /worker "budget" failed on event "budget": the reply changed the field "model" it was sent; on "budget" a module may change only "budget", "state"/,
    );
    const err = await t.rig
      .controller(WINDOW)
      .prepareRequest(syntheticHistory({ turns: 2 }), [])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetCheckError);
    expect((err as Error).message).toMatch(
      /^the budget check before the model request failed: worker "budget"/,
    );
  });
});

describe("candidate checks a replacement cannot bypass", () => {
  test("a candidate that is smaller but still over the hard limit is refused", async () => {
    t.rig = fixtureRig([]);
    // The oversized part is the last user message, which stays in the recent suffix.
    await expectNothingCommitted(
      t.rig,
      historyAt(1.5, HARD, 20),
      "validate",
      /the candidate does not fit/,
      WINDOW,
    );
  });

  test("a candidate estimated by another estimator version is refused as not comparable", async () => {
    t.rig = makeRig({
      modules: ["budget", "compact"],
      bindings: {
        budget: { exec: [process.execPath, LEAKY, "--flip-estimator"] },
        compact: fixtureBinding(),
      },
    });
    await expectNothingCommitted(
      t.rig,
      syntheticHistory({ turns: 12 }),
      "validate",
      /the estimates are not comparable: baseline from .*, candidate from .*flipped/,
    );
  });

  test("the system message cannot be rewritten", async () => {
    t.rig = fixtureRig(["--edit-system"]);
    await expectNothingCommitted(
      t.rig,
      syntheticHistory({ turns: 12 }),
      "before_compact_commit",
      /worker "compact" .*changed the system message \(history\[0\]\)/,
    );
  });
});

test("checkpoint observers are notified after a compaction's checkpoint", async () => {
  t.rig = fixtureRig(["--observe-checkpoints"]);
  const r = t.rig;
  const history = syntheticHistory({ turns: 12 });
  r.session.checkpoint(history);
  const out = await r.controller().compactNow(history, []);
  // A notification: not awaited by the compaction, so wait for it to land.
  for (let i = 0; i < 100 && !r.records().some((x) => x.event === "checkpoint"); i++) await Bun.sleep(20);
  const seen = r.records().filter((x) => x.event === "checkpoint");
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ reason: "compaction", messages: out.length });
  expect(seen[0]?.keys).toEqual(["messages", "reason", "session_id"]);
});

test("a local compaction skips the summary request, not the agent's next request (real agent loop)", async () => {
  t.rig = fixtureRig([]);
  const r = t.rig;
  t.mock = await startMockServer({ script: [{ text: "answered after compaction" }] });
  // Above the 85% watermark: the next request compacts first.
  const history: History = historyAt(0.9, HARD, 20);
  history.push({ role: "assistant", content: "ok" });
  const agent = agentFor(r, history, t.mock.url, 3);
  const result = await agent.send("next question");
  expect(r.events.filter((e) => e.type === "compaction" && e.phase === "done")).toEqual([
    expect.objectContaining({ route: "local" }),
  ]);
  // Exactly one model request: the agent's own, made after (and with) the local summary.
  expect(t.mock.requests.length).toBe(1);
  const sent = JSON.stringify(t.mock.requests[0]?.body);
  expect(sent).toContain("fixture summary of");
  expect(sent).toContain("next question");
  expect(result.text).toBe("answered after compaction");
  expect(textOf(agent.history[1])).toContain("fixture summary of");
});
