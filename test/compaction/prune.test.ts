// Prune first: the built-in module's model-free stage shortens old tool outputs (to what a summariser
// would be shown) when that alone re-arms the trigger, and the core commits it through the same checks
// as a summary (.precompact.json, the compaction event, budget and shape checks). The core refuses a
// "pruning" that touches anything but tool output.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { History, Message } from "../../src/contract/history.ts";
import { TOOL_OUTPUT_MAX_BYTES } from "../../workers/compact/prepare.ts";
import {
  closedAfterEach,
  expectNothingCommitted,
  fixtureRig,
  lastOf,
  makeRig,
  noProvider,
  syntheticHistory,
} from "./helpers.ts";

// window 40 000, reserve 2 000 → hard limit 38 000; trigger at 85%, re-arm below 70%
const WINDOW = { contextWindow: 40_000, maxOutput: 2_000 };

const t = closedAfterEach();

/** A tool session whose old outputs are large (about 2 300 tokens each) and carry a fact in their head. */
function bulkyHistory(turns: number): History {
  const h = syntheticHistory({ turns, toolChars: 10 });
  for (const m of h)
    if (m.role === "tool") m.content = `FACT ${m.tool_call_id}\n${"output line that repeats\n".repeat(380)}`;
  return h;
}

const toolLengths = (h: History) => h.filter((m) => m.role === "tool").map((m) => String(m.content).length);

describe("the built-in prune stage", () => {
  test("when pruning alone re-arms the trigger, old tool outputs are shortened and no summary is made", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    const history = bulkyHistory(15);
    t.rig.session.checkpoint(history);
    const out = await t.rig.controller(WINDOW).prepareRequest(history, []);
    expect(lastOf(t.rig.events, "compaction")).toMatchObject({
      phase: "done",
      route: "prune",
      reason: "auto",
    });
    // Same messages, same order; only tool outputs outside the recent window got shorter.
    expect(out.length).toBe(history.length);
    const before = toolLengths(history);
    const after = toolLengths(out);
    expect(after.at(-1)).toBe(before.at(-1));
    for (const len of after.slice(0, -1)) expect(len).toBeLessThan(TOOL_OUTPUT_MAX_BYTES + 200);
    for (let i = 0; i < history.length; i++) {
      const was = history[i] as Message;
      const now = out[i] as Message;
      expect(now.role).toBe(was.role);
      if (was.role !== "tool") expect(now).toEqual(was);
      // The head survives (the fact), the cut is named.
      else expect(String(now.content)).toContain(`FACT ${was.tool_call_id}`);
    }
    expect(String(out[3]?.content)).toContain(
      "cut from the middle; shortened; the whole output stays in the session's events.jsonl",
    );
    // Committed like any compaction.
    const precompact = JSON.parse(readFileSync(join(t.rig.session.dir, ".precompact.json"), "utf8"));
    expect(precompact).toEqual(history);
    const log = readFileSync(join(t.rig.session.dir, "events.jsonl"), "utf8");
    expect(log).toContain('"route":"prune"');
    expect(log).toContain('"summary_requests":0');
    // The budget re-armed: the next request does not compact again.
    expect(t.rig.controller(WINDOW).isArmed).toBe(true);
  });

  test("when pruning is not enough, the full summary runs instead", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    // Mostly conversation, little tool output: shortening cannot get below 70%.
    const history = syntheticHistory({ turns: 4 });
    history.push({ role: "user", content: "talk ".repeat((33_000 * 4) / 5) });
    t.rig.session.checkpoint(history);
    await t.rig.controller(WINDOW).prepareRequest(history, []);
    // The summary route asks the model (none here, so it fails): proof the prune route was not taken.
    expect(t.rig.events.some((e) => e.type === "compaction" && e.route === "prune")).toBe(false);
    expect(lastOf(t.rig.events, "compaction")).toMatchObject({
      phase: "failed",
      error: expect.stringContaining("compaction failed at summary_request"),
    });
  });

  /** An automatic compaction of `history` in a fresh rig; no model answers, so a summary attempt fails. */
  async function autoCompact(history: History) {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    t.rig.session.checkpoint(history);
    const controller = t.rig.controller({ ...WINDOW, provider: noProvider });
    return { controller, out: await controller.prepareRequest(history, []) };
  }

  /** The compaction was a pruning that left the context between `low` and `high` of the hard limit. */
  function expectPrunedTo(low: number, high: number): void {
    const events = t.rig?.events ?? [];
    expect(lastOf(events, "compaction")).toMatchObject({ phase: "done", route: "prune" });
    const ratio = (lastOf(events, "budget") as { ratio: number }).ratio;
    expect(ratio).toBeGreaterThan(low);
    expect(ratio).toBeLessThan(high);
  }

  /** The compaction went for the summary (and failed there: no model). */
  function expectSummaryTried(): void {
    const events = t.rig?.events ?? [];
    expect(events.some((e) => e.type === "compaction" && e.route === "prune")).toBe(false);
    expect(String((lastOf(events, "compaction") as { error?: string }).error)).toContain("summary_request");
  }

  /**
   * A `summary`-token summary, a `talk`-token user message, three old outputs of about 2,400 tokens, one
   * more output (kept) and the latest turn's output of `latest` tokens: pruning frees about 5,500.
   */
  function lastTurnSized(summary: number, talk: number, latest: number): History {
    const out = (id: string, tokens: number) =>
      `FACT ${id}\n${"output line that repeats\n".repeat(Math.round((tokens * 4) / 25))}`;
    const h: History = [
      { role: "system", content: "You are a test agent." },
      {
        role: "user",
        content: "summary line\n".repeat(Math.round((summary * 4) / 13)),
        meta: { summary: true, untrusted: true },
      },
      { role: "user", content: "talk ".repeat(Math.round((talk * 4) / 5)) },
    ];
    for (let k = 0; k < 5; k++) {
      h.push({
        role: "assistant",
        content: "",
        tool_calls: [{ id: `c${k}`, name: "read", arguments: JSON.stringify({ path: `f${k}` }) }],
      });
      h.push({ role: "tool", tool_call_id: `c${k}`, content: out(`c${k}`, k === 4 ? latest : 2_400) });
    }
    return h;
  }

  test("next to a summary too big to re-arm the trigger, pruning is chosen when a summary would buy no turn", async () => {
    // ~35,900 tokens (94%); pruned ~30,400 (80%). A summary would leave ~28,500 (75%: not re-armed either)
    // and the latest turn's 11,000 (29%) would take that over the hard limit again.
    const history = lastTurnSized(15_000, 0, 11_000);
    const { controller, out } = await autoCompact(history);
    expectPrunedTo(0.7, 0.85);
    // A pruning restores nothing: the summary message is as it was.
    expect(out[1]).toEqual(history[1] as Message);
    // Not re-armed: the next compaction waits for the hard limit instead of running on every request.
    expect(controller.isArmed).toBe(false);
  });

  test("the same context, with a conversation a summary could shrink instead, gets the summary", async () => {
    const history = lastTurnSized(0, 15_000, 11_000);
    history.splice(1, 1);
    await autoCompact(history);
    expectSummaryTried();
  });

  test("when a summary would not survive another turn like the latest one, pruning below the trigger is chosen", async () => {
    // ~34,900 tokens (92%); pruned ~29,400 (77%): above re-arm, below the trigger. A summary would leave
    // ~19,500 (51%), and the latest turn's 14,000 would take that over the trigger again.
    await autoCompact(lastTurnSized(3_000, 8_000, 14_000));
    expectPrunedTo(0.7, 0.85);
  });

  test("when a summary would leave room for another turn like the latest one, the summary runs", async () => {
    // The same total and pruned figures; the latest turn is 8,000 tokens: a summary (~13,500) has room.
    await autoCompact(lastTurnSized(3_000, 14_000, 8_000));
    expectSummaryTried();
  });

  test("when a summary would leave room for no more turns like the latest one than pruning, pruning is chosen", async () => {
    // ~34,700 tokens (91%); pruned ~29,200 (77%), room for one turn of 6,840 (18%) before the hard limit.
    // A summary would leave ~27,300 (72%, not re-armed): more room, but still for one such turn only.
    await autoCompact(lastTurnSized(18_000, 0, 6_840));
    expectPrunedTo(0.74, 0.82);
  });

  test("compact.json prune.enabled:false, and manual compaction, go straight to the summary", async () => {
    for (const setup of ["disabled", "manual"] as const) {
      t.rig = makeRig({ modules: ["budget", "compact"] });
      if (setup === "disabled")
        writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ prune: { enabled: false } }));
      const history = bulkyHistory(15);
      t.rig.session.checkpoint(history);
      const c = t.rig.controller({ ...WINDOW, provider: noProvider });
      const run = setup === "manual" ? c.compactNow(history, []) : c.prepareRequest(history, []);
      await run.catch(() => undefined);
      expect(t.rig.events.some((e) => e.type === "compaction" && e.route === "prune")).toBe(false);
      expect(String((lastOf(t.rig.events, "compaction") as { error?: string }).error)).toContain(
        "summary_request",
      );
      await t.rig.close();
      t.rig = undefined;
    }
  });
});

describe("what the core accepts as pruning", () => {
  test("a replacement's pruning is committed through the same checks", async () => {
    t.rig = fixtureRig(["--prune", "ok"]);
    const history = bulkyHistory(6);
    t.rig.session.checkpoint(history);
    const out = await t.rig.controller().compactNow(history, []);
    expect(lastOf(t.rig.events, "compaction")).toMatchObject({ phase: "done", route: "prune" });
    expect(out.length).toBe(history.length);
    expect(t.rig.onDisk().precompact).toEqual(history);
  });

  for (const [mode, why] of [
    ["rewrite", /pruned\[\d+\] is a user message; only the text output of tool messages may be shortened/],
    ["short", /\d+ messages came back for the \d+ sent/],
  ] as const)
    test(`a pruning that ${mode === "rewrite" ? "edits a user message" : "drops a message"} is refused`, async () => {
      t.rig = fixtureRig(["--prune", mode]);
      await expectNothingCommitted(t.rig, bulkyHistory(6), "before_compact", why);
    });
});
