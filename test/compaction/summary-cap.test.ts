// The summary cap is what the window affords: the room the hard limit leaves after the system message,
// tools, recent suffix and the restoration allowance; never below the fixed quarter-window rule, never
// above a third of the window. Unit figures, then the rule at work through the real pipeline.
import { expect, test } from "bun:test";
import {
  fixedSummaryCap,
  keptTokens,
  RESTORE_ALLOWANCE_SHARE,
  summaryCap,
} from "../../src/compaction/summary-cap.ts";
import type { BudgetModel, BudgetResult } from "../../src/contract/compaction.ts";
import { estimateRequest } from "../../src/lib/estimator.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import {
  closedAfterEach,
  expectNothingCommitted,
  fixtureRig,
  makeRig,
  openAiProvider,
  syntheticHistory,
  textOf,
} from "./helpers.ts";

const t = closedAfterEach();
const model: BudgetModel = { name: "m", context_window: 32_000, max_output_tokens: 2_000 };

function baseline(hard: number, factor?: number): BudgetResult {
  const b: BudgetResult = {
    estimator: { id: "i-chars", version: 1 },
    estimates: { total: 20_000, system: 10, tools: 0, messages: 19_990, images: 0 },
    hard_limit: hard,
    recommendation: "compact",
  };
  if (factor !== undefined) {
    b.calibration_factor = factor;
    b.effective_total = Math.round(20_000 * factor);
  }
  return b;
}

test("the cap is the room the hard limit leaves after what the candidate keeps and the restore allowance", () => {
  // 30,000 less 1,500 allowance (5% of the hard limit) and 19,500 kept = 9,000, over the fixed rule's
  // 8,000 and under a third of the window (10,666).
  expect(RESTORE_ALLOWANCE_SHARE).toBe(0.05);
  expect(summaryCap({ model, baseline: baseline(30_000), kept: 19_500 })).toBe(9_000);
});

test("never below the fixed quarter-window rule, never above a third of the window", () => {
  expect(fixedSummaryCap(model)).toBe(8_000);
  // A suffix that leaves little room: the fixed rule still holds (the candidate check decides the fit).
  expect(summaryCap({ model, baseline: baseline(30_000), kept: 21_000 })).toBe(8_000);
  // Unless the candidate could not hold it beside the suffix: then what it can hold, so the summary is
  // condensed to fit instead of failing the fit check (the summary message's wrapper counts too).
  const tight = summaryCap({ model, baseline: baseline(30_000), kept: 25_000 });
  expect(tight).toBeLessThan(5_000);
  expect(tight).toBeGreaterThan(4_800);
  // A suffix that leaves no room at all: no summary can help, the fixed rule stands and the fit check
  // names the suffix.
  expect(summaryCap({ model, baseline: baseline(30_000), kept: 30_000 })).toBe(8_000);
  // A nearly empty candidate: a third of the window at most.
  expect(summaryCap({ model, baseline: baseline(30_000), kept: 100 })).toBe(10_666);
  // The fixed rule's own ceiling (20,000) is what a large window with a full suffix falls back to.
  const big: BudgetModel = { name: "big", context_window: 1_000_000 };
  expect(summaryCap({ model: big, baseline: baseline(990_000), kept: 950_000 })).toBe(20_000);
});

test("a calibrated session measures the room in estimator tokens, as the summary is measured", () => {
  // Real tokens run 1.25× the estimate: the 30,000-token hard limit is 24,000 estimated, the allowance 1,200.
  expect(summaryCap({ model, baseline: baseline(30_000, 1.25), kept: 13_000 })).toBe(9_800);
});

test("what the candidate keeps is the system message, tools and the suffix from the cut on", () => {
  const h = syntheticHistory({ turns: 6 });
  const cut = h.length - 4;
  const tools = [{ name: "read", description: "read a file", input_schema: { type: "object" } }];
  expect(keptTokens(h, cut, tools, model)).toBe(
    estimateRequest([h[0], ...h.slice(cut)], undefined, tools, undefined).total,
  );
});

test("a summary over the quarter-window rule but within what the context affords is kept as written", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // About 8,400 tokens: over the fixed cap of a 32k window (8,000), which used to send it to be condensed,
  // and within the budget of the affordable cap (80% of 10,666), above which it would be condensed now.
  const facts = Array.from({ length: 3350 }, (_, i) => `fact ${String(i).padStart(4, "0")}`).join("\n");
  const summary = `## Critical context\n${facts}`;
  t.mock = await startMockServer({ script: () => ({ text: summary }) });
  // About 18,000 tokens of tool output to compact, in a 24,000-token hard limit.
  const history = syntheticHistory({ turns: 12, toolChars: 6000 });
  t.rig.session.checkpoint(history);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), contextWindow: 32_000, maxOutput: 10_000 })
    .compactNow(history, []);
  expect(t.mock.requests.length).toBe(1);
  expect(textOf(out[1])).toContain("fact 3349");
  expect(textOf(out[1])).toContain("fact 0000");
  expect(t.rig.events.some((e) => e.type === "notice" && e.message.includes("condense"))).toBe(false);
});

test("before_compact is told the cap; a local summary over it is refused, naming the cap and the rule", async () => {
  t.rig = fixtureRig(["--summary", "huge"]);
  const err = await expectNothingCommitted(
    t.rig,
    syntheticHistory({ turns: 12 }),
    "after_compact",
    /oversized/,
    {
      contextWindow: 32_000,
      maxOutput: 2_000,
    },
  );
  expect(err.message).toMatch(/over this compaction's cap of \d+ \(the room the hard limit leaves/);
  const prepared = t.rig.records().find((r) => r.event === "before_compact");
  expect(prepared?.keys).toContain("summary_cap");
});
