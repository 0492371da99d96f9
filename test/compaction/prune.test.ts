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

  /** bulkyHistory(4) after a 25,000-token `big` message: 0.92 of the hard limit; pruning gets it to 0.77. */
  function behind(big: Message): History {
    const h = bulkyHistory(4);
    h.splice(1, 0, big);
    return h;
  }
  const notes = "summary line that repeats\n".repeat(Math.round((25_000 * 4) / 26));

  test("next to a summary too big to re-arm the trigger, pruning below the trigger is chosen over a summary", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    // The previous summary and the suffix alone pass 70%: a new summary could not re-arm either.
    const history = behind({ role: "user", content: notes, meta: { summary: true, untrusted: true } });
    t.rig.session.checkpoint(history);
    const c = t.rig.controller({ ...WINDOW, provider: noProvider });
    const out = await c.prepareRequest(history, []);
    expect(lastOf(t.rig.events, "compaction")).toMatchObject({ phase: "done", route: "prune" });
    const ratio = (lastOf(t.rig.events, "budget") as { ratio: number }).ratio;
    expect(ratio).toBeGreaterThan(0.7);
    expect(ratio).toBeLessThan(0.85);
    expect(out[1]).toEqual(history[1] as Message);
    // Not re-armed: the next compaction waits for the hard limit instead of running on every request.
    expect(c.isArmed).toBe(false);
  });

  test("the same context whose bulk a summary could shrink gets the summary", async () => {
    t.rig = makeRig({ modules: ["budget", "compact"] });
    const history = behind({ role: "user", content: notes });
    t.rig.session.checkpoint(history);
    await t.rig.controller({ ...WINDOW, provider: noProvider }).prepareRequest(history, []);
    expect(t.rig.events.some((e) => e.type === "compaction" && e.route === "prune")).toBe(false);
    expect(String((lastOf(t.rig.events, "compaction") as { error?: string }).error)).toContain(
      "summary_request",
    );
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
