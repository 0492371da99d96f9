// When compaction runs: the 85%/70% high-watermark hysteresis, automatic compaction before a request,
// the hard limit enforced before any HTTP when no compactor can help, overflow recovery (compact once,
// retry once), the circuit breaker, and calibration from real usage. Real workers, the real agent loop
// where HTTP matters, and the local t.mock model server.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompactionController } from "../../src/compaction/controller.ts";
import { BudgetExceededError, CompactionError } from "../../src/compaction/errors.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { ProviderError } from "../../src/provider/types.ts";
import type { HookRunner } from "../../src/worker/types.ts";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import { MAIN } from "../helpers/cli.ts";
import { BUN } from "../worker/helpers.ts";
import {
  agentFor,
  closedAfterEach,
  fixtureRig,
  historyAt,
  lastOf,
  makeRig,
  noProvider,
  type Rig,
  syntheticHistory,
} from "./helpers.ts";

// window 12 000, reserve min(max_output 2000, window/4) = 2000 → hard limit 10 000
const WINDOW = { contextWindow: 12_000, maxOutput: 2_000 };
const HARD = 10_000;

const t = closedAfterEach();

describe("high-watermark hysteresis", () => {
  test("compaction is attempted at 85%, not again until usage fell below 70%", async () => {
    t.rig = fixtureRig(["--cut=null"]); // a compactor that always declines: the history never shrinks
    const r = t.rig as ReturnType<typeof fixtureRig>;
    const c = r.controller(WINDOW);
    // A replacement is asked before every request (it may choose its own trigger); an attempt is what
    // the budget recommended, which this always-declining compactor turns into a `skipped` event.
    const plans = () => r.events.filter((e) => e.type === "compaction" && e.phase === "skipped").length;
    const at = async (ratio: number) => {
      const h = historyAt(ratio, HARD);
      expect(await c.prepareRequest(h, [])).toBe(h);
      return lastOf(r.events, "budget");
    };
    expect((await at(0.8))?.recommendation).toBe("none");
    expect(plans()).toBe(0);
    expect((await at(0.86))?.recommendation).toBe("compact");
    expect(plans()).toBe(1);
    expect(lastOf(r.events, "compaction")?.phase).toBe("skipped");
    expect((await at(0.9))?.recommendation).toBe("none");
    expect((await at(0.75))?.recommendation).toBe("none");
    expect(c.isArmed).toBe(false);
    expect(plans()).toBe(1);
    await at(0.65);
    expect(c.isArmed).toBe(true);
    expect((await at(0.86))?.recommendation).toBe("compact");
    expect(plans()).toBe(2);
  });

  test("a replacement may choose its own trigger: asked before every request, it compacts below the watermark", async () => {
    t.rig = fixtureRig(["--own-trigger"]);
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.45, HARD, 20);
    t.rig.session.checkpoint(h);
    const out = await c.prepareRequest(h, []);
    expect(lastOf(t.rig.events, "budget")?.recommendation).toBe("none");
    expect(out.length).toBeLessThan(h.length);
    expect(
      t.rig.events.filter((e) => e.type === "compaction").map((e) => e.type === "compaction" && e.phase),
    ).toEqual(["start", "done"]);
  });

  test("a replacement that follows the recommendation is asked quietly: no compaction events when it declines", async () => {
    t.rig = fixtureRig([]);
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.45, HARD, 20);
    expect(await c.prepareRequest(h, [])).toBe(h);
    expect(t.rig.records().filter((x) => x.event === "compact_plan")).toHaveLength(1);
    expect(t.rig.events.some((e) => e.type === "compaction")).toBe(false);
  });

  test("the built-in compactor is not asked when nothing is recommended", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.45, HARD, 20);
    expect(await c.prepareRequest(h, [])).toBe(h);
    // budget and compact share one built-in process: a second request adds exactly the budget call.
    const before = t.rig.host.requestsOf("compact");
    expect(await c.prepareRequest(h, [])).toBe(h);
    expect(t.rig.host.requestsOf("compact") - before).toBe(1);
    expect(t.rig.events.some((e) => e.type === "compaction")).toBe(false);
  });

  test("above the watermark the controller compacts before the request and re-arms", async () => {
    t.rig = fixtureRig([]);
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.88, HARD, 20);
    t.rig.session.checkpoint(h);
    const out = await c.prepareRequest(h, []);
    expect(out.length).toBeLessThan(h.length);
    expect(lastOf(t.rig.events, "compaction")).toMatchObject({
      phase: "done",
      reason: "auto",
      route: "local",
    });
    expect(t.rig.onDisk().history).toEqual(out);
    expect(t.rig.onDisk().precompact).toEqual(h);
    expect(c.isArmed).toBe(true);
  });
});

describe("no compactor: the hard limit is an error before any model HTTP", () => {
  const cases: [string, (configDir: string) => ReturnType<typeof generateManifest>][] = [
    [
      "profile budget",
      (configDir) =>
        generateManifest({ profile: "budget", configDir, plugins: {}, bindings: {}, self: [BUN, MAIN] }),
    ],
    [
      'plugins.json "disabled":["compact"]',
      (configDir) =>
        generateManifest({
          profile: "compact",
          configDir,
          plugins: { disabled: ["compact"] },
          bindings: {},
          self: [BUN, MAIN],
        }),
    ],
  ];
  for (const [name, manifest] of cases) {
    test(name, async () => {
      t.rig = makeRig({ modules: [], manifest });
      t.mock = await startMockServer({ script: [{ text: "must not be asked" }] });
      expect(t.rig.host.hasHook("compact_plan")).toBe(false);
      const agent = agentFor(t.rig, historyAt(1.05, HARD), t.mock.url);
      const err = await agent.send("continue").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BudgetExceededError);
      expect((err as Error).message).toMatch(/no compactor is active.*No request was sent/);
      expect(t.mock.requests.length).toBe(0);
    });
  }

  test("compact.json enabled:false: the built-in compactor declines and the run stops before HTTP", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ enabled: false }));
    t.mock = await startMockServer({ script: [{ text: "must not be asked" }] });
    const err = await agentFor(t.rig, historyAt(1.05, HARD), t.mock.url)
      .send("continue")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as Error).message).toMatch(/declined: compaction is disabled in .*compact\.json/);
    expect(t.mock.requests.length).toBe(0);
  });

  test("below the limit without a compactor: one warning, and requests go on", async () => {
    t.rig = makeRig({ modules: ["budget"] });
    t.mock = await startMockServer({ script: [{ text: "ok" }, { text: "ok again" }] });
    const agent = agentFor(t.rig, historyAt(0.86, HARD), t.mock.url);
    await agent.send("one");
    await agent.send("two");
    expect(t.mock.requests.length).toBe(2);
    expect(t.rig.events.filter((e) => e.type === "notice" && e.message.includes("no compactor")).length).toBe(
      1,
    );
  });
});

describe("provider context overflow", () => {
  test("compact once, retry once", async () => {
    t.rig = fixtureRig([]);
    t.mock = await startMockServer({ script: [{ error: "overflow" }, { text: "recovered" }] });
    const h = syntheticHistory({ turns: 10 });
    const agent = agentFor(t.rig, h, t.mock.url);
    const result = await agent.send("go on");
    expect(result.text).toBe("recovered");
    expect(t.mock.requests.length).toBe(2); // no summary request: the fixture summarises locally
    const requests = t.mock.requests;
    const sent = (i: number) => ((requests[i]?.body ?? {}) as { messages: unknown[] }).messages.length;
    expect(sent(1)).toBeLessThan(sent(0));
    const done = t.rig.events.filter((e) => e.type === "compaction" && e.phase === "done");
    expect(done).toEqual([expect.objectContaining({ reason: "overflow" })]);
  });

  test("a second overflow is an error, after exactly one compaction", async () => {
    t.rig = fixtureRig([]);
    t.mock = await startMockServer({ script: [{ error: "overflow" }, { error: "overflow" }] });
    const err = await agentFor(t.rig, syntheticHistory({ turns: 10 }), t.mock.url)
      .send("go on")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("context_overflow");
    expect(t.mock.requests.length).toBe(2);
    expect(t.rig.events.filter((e) => e.type === "compaction" && e.phase === "done").length).toBe(1);
  });
});

describe("the baseline estimate", () => {
  /** The real host, with the length of each history the budget hook was asked about. */
  function countingBudget(r: Rig): { hooks: HookRunner; budgetCalls: number[] } {
    const budgetCalls: number[] = [];
    const hooks: HookRunner = {
      hasHook: (e) => r.host.hasHook(e),
      runHook: (e, d, o) => {
        if (e === "budget") budgetCalls.push((d.history as unknown[]).length);
        return r.host.runHook(e, d, o);
      },
      callTool: (n, a, id) => r.host.callTool(n, a, id),
      toolDecls: () => r.host.toolDecls(),
      close: () => r.host.close(),
    };
    return { hooks, budgetCalls };
  }

  function controllerWith(r: Rig, hooks: HookRunner): CompactionController {
    return new CompactionController({
      hooks,
      provider: noProvider,
      model: {
        name: "test-model",
        context_window: WINDOW.contextWindow,
        max_output_tokens: WINDOW.maxOutput,
      },
      policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
      workspace: r.workspace,
      session: r.session,
      emit: (ev) => r.events.push(ev),
    });
  }

  test("automatic compaction reuses the pre-request reading; manual and overflow compaction read afresh", async () => {
    t.rig = fixtureRig([]);
    const { hooks, budgetCalls } = countingBudget(t.rig);
    const h = historyAt(0.9, HARD, 20);
    t.rig.session.checkpoint(h);
    const auto = await controllerWith(t.rig, hooks).prepareRequest(h, []);
    expect(auto.length).toBeLessThan(h.length);
    // One reading of the full history (the pre-request check, which is the baseline), one of the draft
    // (the room the commit may fill) and one of the candidate (this compactor restores nothing).
    expect(budgetCalls).toEqual([h.length, auto.length, auto.length]);
    const before = t.rig.events.find((e) => e.type === "budget");
    const done = t.rig.events.find((e) => e.type === "compaction" && e.phase === "done");
    expect(done).toMatchObject({
      reason: "auto",
      before_tokens: before?.type === "budget" ? before.total : -1,
    });

    for (const run of [
      (c: CompactionController) => c.compactNow(h, []),
      (c: CompactionController) => c.recoverFromOverflow(h, []),
    ]) {
      budgetCalls.length = 0;
      t.rig.session.checkpoint(h);
      const out = await run(controllerWith(t.rig, hooks));
      expect(budgetCalls).toEqual([h.length, out.length, out.length]);
    }
  });
});

describe("circuit breaker", () => {
  test("3 automatic failures stop automatic compaction until a manual one succeeds", async () => {
    t.rig = fixtureRig(["--bloat-unless-forced"]);
    const r = t.rig as ReturnType<typeof fixtureRig>;
    const c = r.controller(WINDOW);
    const plans = () => r.records().filter((x) => x.event === "compact_plan").length;
    const over = historyAt(1.02, HARD, 20);
    r.session.checkpoint(over);
    for (let i = 1; i <= 3; i++) {
      const err = await c.prepareRequest(over, []).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BudgetExceededError);
      expect((err as Error).message).toContain(
        "compaction failed at after_compact: the summary is oversized",
      );
      expect(plans()).toBe(i);
    }
    expect(c.breakerOpen).toBe(true);
    expect(r.events.some((e) => e.type === "notice" && e.message.includes("failed 3 times in a row"))).toBe(
      true,
    );
    // Open: no attempt, a clear error, still before any request.
    const paused = await c.prepareRequest(over, []).catch((e: unknown) => e);
    expect((paused as Error).message).toContain("paused after 3 consecutive failures");
    await expect(c.recoverFromOverflow(over, [])).rejects.toBeInstanceOf(CompactionError);
    expect(plans()).toBe(3);
    expect(r.onDisk().precompact).toBeUndefined();

    // A manual success closes the breaker.
    const compacted = await c.compactNow(over, []);
    expect(c.consecutiveFailures).toBe(0);
    expect(c.breakerOpen).toBe(false);
    expect(r.events.some((e) => e.type === "notice" && e.message.includes("on again"))).toBe(true);
    expect(compacted.length).toBeLessThan(over.length);
    const again = historyAt(1.02, HARD, 20);
    await c.prepareRequest(again, []).catch(() => undefined);
    expect(plans()).toBe(5);
  });

  test("an automatic compaction the user cancelled leaves the failure count unchanged", async () => {
    t.rig = fixtureRig(["--bloat-unless-forced"]);
    const c = t.rig.controller(WINDOW);
    const over = historyAt(1.02, HARD, 20);
    t.rig.session.checkpoint(over);
    // One real failure while the turn runs: counted.
    await expect(c.prepareRequest(over, [], new AbortController().signal)).rejects.toBeInstanceOf(
      BudgetExceededError,
    );
    expect(c.consecutiveFailures).toBe(1);
    // The same attempt ending while the turn is cancelled (Ctrl-C/Esc), three times: not counted.
    const cancelled = new AbortController();
    cancelled.abort();
    // The history comes back unchanged, so the loop ends the turn as interrupted rather than too long.
    for (let i = 0; i < 3; i++) expect(await c.prepareRequest(over, [], cancelled.signal)).toBe(over);
    expect(c.consecutiveFailures).toBe(1);
    expect(c.breakerOpen).toBe(false);
    expect(t.rig.session.compactionState?.failures).toBe(1);
    // The next uncancelled failure counts again.
    await c.prepareRequest(over, [], new AbortController().signal).catch(() => undefined);
    expect(c.consecutiveFailures).toBe(2);
  });

  test("manual failures do not count toward the breaker", async () => {
    t.rig = fixtureRig(["--summary", "bloat"]);
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.5, HARD, 20);
    for (let i = 0; i < 4; i++) await expect(c.compactNow(h, [])).rejects.toBeInstanceOf(CompactionError);
    expect(c.consecutiveFailures).toBe(0);
  });
});

describe("without the budget module", () => {
  test("no comparable estimate: automatic compaction cannot run, and the user is told", async () => {
    t.rig = fixtureRig([], { modules: ["compact"] });
    const c = t.rig.controller(WINDOW);
    const h = historyAt(1.5, HARD);
    expect(await c.prepareRequest(h, [])).toBe(h);
    expect(await c.prepareRequest(h, [])).toBe(h);
    const notices = t.rig.events.filter((e) => e.type === "notice" && e.message.includes("no budget module"));
    expect(notices.length).toBe(1);
    const err = await c.compactNow(h, []).catch((e: unknown) => e);
    expect((err as CompactionError).step).toBe("budget");
    expect((err as Error).message).toContain("no comparable estimate");
  });
});

describe("calibration", () => {
  test("real usage scales the next estimate; a compaction resets it", async () => {
    t.rig = fixtureRig([]);
    const c = t.rig.controller(WINDOW);
    const h = historyAt(0.4, HARD);
    await c.prepareRequest(h, []);
    const raw = lastOf(t.rig.events, "budget")?.total as number;
    c.recordUsage({ input_tokens: raw * 2, output_tokens: 10 }, h.length);
    await c.prepareRequest(h, []);
    expect(lastOf(t.rig.events, "budget")?.total).toBe(raw * 2);
    expect(lastOf(t.rig.events, "budget")?.recommendation).toBe("none");
    c.recordUsage({ input_tokens: Math.round(raw * 2.3), output_tokens: 10 }, h.length);
    await c.prepareRequest(h, []); // 0.4 × 2.3 = 92%: compacts
    expect(lastOf(t.rig.events, "compaction")?.phase).toBe("done");
    const events = readFileSync(join(t.rig.session.dir, "events.jsonl"), "utf8");
    expect(events).toContain('"reason":"auto"');
  });
});
