// The automatic-compaction state lives in the session: the armed flag (high-watermark hysteresis), the
// consecutive failures (circuit breaker) and the compaction count survive a resume, like codex's numbered
// auto-compact windows. A resumed session does not get three fresh attempts at a broken compactor.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CompactionController } from "../../src/compaction/controller.ts";
import { BudgetExceededError } from "../../src/compaction/errors.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import { Session } from "../../src/session/session.ts";
import { closedAfterEach, fixtureRig, historyAt, noProvider, type Rig } from "./helpers.ts";

const WINDOW = { contextWindow: 12_000, maxOutput: 2_000 };
const HARD = 10_000;

const t = closedAfterEach();

/** A controller over the same workers for the session as `Session.open` reads it back (a resume). */
function resumed(
  r: Rig,
  events: AgentEvent[],
  compactor?: string,
): { controller: CompactionController; session: Session } {
  const session = Session.open(r.dataDir, r.session.id);
  const controller = new CompactionController({
    hooks: r.host,
    provider: noProvider,
    model: { name: "test-model", context_window: WINDOW.contextWindow, max_output_tokens: WINDOW.maxOutput },
    policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
    workspace: r.workspace,
    session,
    emit: (ev) => events.push(ev),
    manifest: r.manifest,
    ...(compactor ? { compactor } : {}),
  });
  return { controller, session };
}

function meta(r: Rig): {
  compactions: number;
  compaction?: { armed: boolean; failures: number; compactor?: string };
} {
  return JSON.parse(readFileSync(join(r.session.dir, "meta.json"), "utf8"));
}

test("consecutive failures survive a resume: the third failure after it opens the breaker", async () => {
  t.rig = fixtureRig(["--bloat-unless-forced"]);
  const r = t.rig;
  const over = historyAt(1.02, HARD, 20);
  r.session.checkpoint(over);
  const first = r.controller(WINDOW);
  for (let i = 0; i < 2; i++)
    await expect(first.prepareRequest(over, [])).rejects.toBeInstanceOf(BudgetExceededError);
  expect(meta(r).compaction).toEqual({ armed: false, failures: 2 });

  const events: AgentEvent[] = [];
  const { controller } = resumed(r, events);
  expect(controller.consecutiveFailures).toBe(2);
  expect(controller.breakerOpen).toBe(false);
  await expect(controller.prepareRequest(over, [])).rejects.toBeInstanceOf(BudgetExceededError);
  expect(controller.breakerOpen).toBe(true);
  expect(events.some((e) => e.type === "notice" && e.message.includes("failed 3 times in a row"))).toBe(true);
  // And the open breaker itself survives the next resume: no attempt is made.
  const plans = () => r.records().filter((x) => x.event === "compact_plan").length;
  const before = plans();
  const again = resumed(r, []).controller;
  expect(again.breakerOpen).toBe(true);
  const paused = await again.prepareRequest(over, []).catch((e: unknown) => e);
  expect((paused as Error).message).toContain("paused after 3 consecutive failures");
  expect(plans()).toBe(before);
});

test("the armed flag and the compaction count survive a resume", async () => {
  t.rig = fixtureRig([]);
  const r = t.rig;
  // Just over the trigger: the compaction fires and the budget disarms until usage falls below 70%.
  const h = historyAt(0.9, HARD, 20);
  r.session.checkpoint(h);
  const c = r.controller(WINDOW);
  await c.compactNow(h, []);
  const saved = meta(r);
  expect(saved.compactions).toBe(1);
  expect(saved.compaction).toEqual({ armed: c.isArmed, failures: 0 });

  // A disarmed state read back is used as is: the resumed controller passes it to the budget.
  const session = Session.open(r.dataDir, r.session.id);
  session.saveCompactionState({ armed: false, failures: 1 });
  const back = resumed(r, []).controller;
  expect(back.isArmed).toBe(false);
  expect(back.consecutiveFailures).toBe(1);
  expect(meta(r).compactions).toBe(1);
});

test("a breaker opened against one compactor closes, with a notice, when the run has another", async () => {
  t.rig = fixtureRig(["--bloat-unless-forced"]);
  const r = t.rig;
  const over = historyAt(1.02, HARD, 20);
  r.session.checkpoint(over);
  const first = resumed(r, [], "compactor-a").controller;
  for (let i = 0; i < 3; i++)
    await expect(first.prepareRequest(over, [])).rejects.toBeInstanceOf(BudgetExceededError);
  expect(first.breakerOpen).toBe(true);
  expect(meta(r).compaction).toEqual({ armed: false, failures: 3, compactor: "compactor-a" });
  const plans = () => r.records().filter((x) => x.event === "compact_plan").length;

  // The same compactor: still paused, no attempt.
  const same = resumed(r, [], "compactor-a").controller;
  expect(same.breakerOpen).toBe(true);
  const before = plans();
  await expect(same.prepareRequest(over, [])).rejects.toBeInstanceOf(BudgetExceededError);
  expect(plans()).toBe(before);

  // Another one (a new binding or configuration): on again, said once, and it is tried.
  const events: AgentEvent[] = [];
  const other = resumed(r, events, "compactor-b").controller;
  expect(other.breakerOpen).toBe(false);
  await expect(other.prepareRequest(over, [])).rejects.toBeInstanceOf(BudgetExceededError);
  expect(plans()).toBe(before + 1);
  const notices = events.filter((e) => e.type === "notice" && e.message.includes("the compactor changed"));
  expect(notices).toHaveLength(1);
  expect(meta(r).compaction?.compactor).toBe("compactor-b");
});
