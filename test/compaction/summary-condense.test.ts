// Incremental condensing: a model summary over its budget (a share of the cap) has only its oldest part
// re-summarised, the newest part kept as written, once per compaction; the result is aimed well below
// the budget, so the next compaction's summary (the previous one plus what is new) fits again without
// condensing. A summary over the cap after that fails the compaction.
// Unit figures of the split, then the rule through the real pipeline (budget and compact workers, the
// mock model).
import { expect, test } from "bun:test";
import {
  CONDENSE_ABOVE_SHARE,
  CONDENSE_TARGET_SHARE,
  CONDENSE_VERBATIM_SHARE,
  condenseBudget,
  joinCondensed,
  splitForCondensing,
  summaryTokens,
} from "../../src/compaction/summary-condense.ts";
import type { History } from "../../src/contract/history.ts";
import { type RecordedRequest, startMockServer } from "../fixtures/mock-server/index.ts";
import {
  closedAfterEach,
  expectNothingCommitted,
  makeRig,
  openAiProvider,
  syntheticHistory,
  textOf,
} from "./helpers.ts";

const t = closedAfterEach();

const items = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `item ${String(from + i).padStart(4, "0")}`);
const HEAD = "## Critical context";
const bodyText = (req: RecordedRequest | undefined) => JSON.stringify(req?.body ?? {});
const systemOf = (req: RecordedRequest | undefined) =>
  String((req?.body as { messages?: { content: unknown }[] } | undefined)?.messages?.[0]?.content);
const isCondense = (req: RecordedRequest) => systemOf(req).includes("You are condensing");
/** 24k window, 8k output: the cap of these compactions is a third of the window, 8,000 tokens. */
const WINDOW = { contextWindow: 24_000, maxOutput: 8_000 };
const CAP = 8_000;

test("the newest whole lines within their share of the cap are kept; the rest is the oldest part", () => {
  const summary = [HEAD, ...items(0, 4000)].join("\n");
  const split = splitForCondensing(summary, 2_000);
  expect(`${split.oldest}\n${split.newest}`).toBe(summary);
  expect(split.oldest.startsWith(HEAD)).toBe(true);
  expect(split.newest.endsWith("item 3999")).toBe(true);
  // Whole lines: the newest part starts at a line, and one more line would not fit in its share.
  expect(split.newest.startsWith("item ")).toBe(true);
  const keep = 2_000 * CONDENSE_VERBATIM_SHARE;
  expect(summaryTokens(split.newest)).toBeLessThanOrEqual(keep);
  expect(summaryTokens(`item 0000\n${split.newest}`)).toBeGreaterThan(keep - 3);
  // The condensed oldest part is aimed so the whole lands at the target share of the cap.
  expect(split.target).toBe(2_000 * CONDENSE_TARGET_SHARE - summaryTokens(split.newest) - 1);
  expect(joinCondensed("condensed", split)).toBe(`condensed\n${split.newest}`);
});

test("a summary whose last line alone outgrows the newest part's share is condensed whole", () => {
  const summary = `${HEAD}\n${"x".repeat(10_000)}`;
  const split = splitForCondensing(summary, 2_000);
  expect(split).toEqual({ oldest: summary, newest: "", target: 2_000 * CONDENSE_TARGET_SHARE - 1 });
  expect(joinCondensed("short", split)).toBe("short");
});

test("over its budget: only the oldest part is sent to be condensed, once; the newest comes back as written", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // About 12,500 tokens: over the cap of 8,000.
  const long = [HEAD, ...items(0, 5000)].join("\n");
  t.mock = await startMockServer({
    script: (req) => (isCondense(req) ? { text: `${HEAD}\nitems 0000-3000, condensed` } : { text: long }),
  });
  const history = syntheticHistory({ turns: 12, toolChars: 4_000 });
  t.rig.session.checkpoint(history);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), ...WINDOW })
    .compactNow(history, []);
  expect(t.mock.requests.map(isCondense)).toEqual([false, true]);
  const condense = bodyText(t.mock.requests[1]);
  // The oldest lines, and none of the newest: those are not rewritten.
  expect(condense).toContain("item 0000");
  expect(condense).not.toContain("item 4999");
  const split = splitForCondensing(long, CAP);
  expect(systemOf(t.mock.requests[1])).toContain(`at most ${split.target} tokens`);
  const summary = textOf(out[1]);
  expect(summary).toContain(`items 0000-3000, condensed\n${split.newest}`);
  expect(summaryTokens(joinCondensed(`${HEAD}\nitems 0000-3000, condensed`, split))).toBeLessThanOrEqual(
    CAP * CONDENSE_TARGET_SHARE,
  );
  expect(systemOf(t.mock.requests[1])).toContain("its newest part is kept as written after yours");
  const notice = t.rig.events.find((e) => e.type === "notice" && e.message.includes("condense its oldest"));
  expect(notice).toBeDefined();
});

test("a summary at its budget is kept as written: no condensing", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  expect(condenseBudget(CAP)).toBe(CAP * CONDENSE_ABOVE_SHARE);
  const exact = `${HEAD}\n${"y".repeat(condenseBudget(CAP) * 4 - HEAD.length - 1)}`;
  expect(summaryTokens(exact)).toBe(condenseBudget(CAP));
  t.mock = await startMockServer({ script: () => ({ text: exact }) });
  const history = syntheticHistory({ turns: 12, toolChars: 4_000 });
  t.rig.session.checkpoint(history);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), ...WINDOW })
    .compactNow(history, []);
  expect(t.mock.requests.length).toBe(1);
  expect(textOf(out[1])).toContain(exact);
});

test("over its budget but within the cap, a condensed result that stays over the budget is accepted", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // About 7,000 tokens: over the budget (6,400), within the cap (8,000).
  const between = [HEAD, ...items(0, 2800)].join("\n");
  const split = splitForCondensing(between, CAP);
  const condensedOldest = [HEAD, ...items(0, 1700)].join("\n");
  expect(summaryTokens(joinCondensed(condensedOldest, split))).toBeGreaterThan(condenseBudget(CAP));
  t.mock = await startMockServer({
    script: (req) => (isCondense(req) ? { text: condensedOldest } : { text: between }),
  });
  const history = syntheticHistory({ turns: 12, toolChars: 4_000 });
  t.rig.session.checkpoint(history);
  const out = await t.rig
    .controller({ provider: openAiProvider(t.mock.url), ...WINDOW })
    .compactNow(history, []);
  expect(t.mock.requests.map(isCondense)).toEqual([false, true]);
  expect(textOf(out[1])).toContain(joinCondensed(condensedOldest, split));
});

test("still over the cap after its oldest part was condensed: the compaction fails, with no second condensing", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  const long = [HEAD, ...items(0, 5000)].join("\n");
  t.mock = await startMockServer({ script: () => ({ text: long }) });
  await expectNothingCommitted(
    t.rig,
    syntheticHistory({ turns: 12, toolChars: 4_000 }),
    "summary_request",
    /still about \d+ tokens after its oldest part was condensed, over the cap of 8000/,
    { provider: openAiProvider(t.mock.url), ...WINDOW },
  );
  expect(t.mock.requests.map(isCondense)).toEqual([false, true]);
});

test("the next compaction's summary, the condensed one plus what is new, fits without condensing", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  // An ideal summariser: every item it is shown; asked to condense, the newest items that fit.
  t.mock = await startMockServer({
    script: (req) => {
      const seen = [...new Set(bodyText(req).match(/item \d{4}/g) ?? [])].sort();
      const limit = /at most (\d+) tokens/.exec(systemOf(req))?.[1];
      const room = limit === undefined ? seen.length : Math.floor((Number(limit) * 4 * 0.9) / 10) - 2;
      return { text: [HEAD, ...seen.slice(-room)].join("\n") };
    },
  });
  const history = syntheticHistory({ turns: 6, toolChars: 4_000 });
  // A previous summary of 3,400 items (about 8,500 tokens) before the turns: one summary request holds it.
  history.splice(1, 0, {
    role: "user",
    content: `[Context summary]\n<summary>\n${[HEAD, ...items(0, 3400)].join("\n")}\n</summary>`,
    meta: { summary: true, untrusted: true },
  });
  t.rig.session.checkpoint(history);
  const controller = t.rig.controller({ provider: openAiProvider(t.mock.url), ...WINDOW });
  const first = await controller.compactNow(history, []);
  expect(t.mock.requests.map(isCondense)).toEqual([false, true]);
  const condensed = textOf(first[1]);
  expect([condensed.includes("item 3399"), condensed.includes("item 0000")]).toEqual([true, false]);

  // Six new turns, each planting a new item: the next summary is the previous one plus six lines.
  const next: History = [...first];
  for (const m of syntheticHistory({ turns: 6, toolChars: 4_000 }).slice(1)) {
    const moved = JSON.parse(JSON.stringify(m).replace(/call_(\d+)/g, "call_1$1")) as typeof m;
    const turn = Number(/^turn (\d+)/.exec(textOf(m))?.[1]);
    next.push(m.role === "user" ? { ...moved, content: `${textOf(m)} (item ${3400 + turn})` } : moved);
  }
  t.rig.session.checkpoint(next);
  const second = await controller.compactNow(next, []);
  expect(t.mock.requests.map(isCondense)).toEqual([false, true, false]);
  // The condensed summary's items and the new ones the cut compacted (the last turns are the suffix).
  const summary = textOf(second[1]);
  expect(["item 3399", "item 3400", "item 3403"].filter((i) => !summary.includes(i))).toEqual([]);
});
