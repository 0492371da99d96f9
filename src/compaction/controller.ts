// When to compact: before every model request the budget decides (high-watermark
// with re-arm hysteresis), the hard limit is enforced before any HTTP, the user can compact by hand, and a
// provider context overflow gets one compaction. Three consecutive automatic failures open a circuit
// breaker, so a broken compactor cannot turn every request into a failing compaction; a manual success
// closes it.

import type { BudgetPolicy, UsageSample } from "../contract/compaction.ts";
import type { ModelInfo } from "../contract/config.ts";
import { errorMessage } from "../contract/errors.ts";
import type { CompactionReason, EmitEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import type { CompactionState } from "../contract/session.ts";
import { log, logOn } from "../lib/log.ts";
import type { Provider, Usage } from "../provider/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { type BudgetReading, budgetModel, effectiveTotal, readBudget } from "./budget-call.ts";
import { BudgetCheckError, BudgetExceededError, CompactionError } from "./errors.ts";
import { compactionModules } from "./modules-info.ts";
import { type CompactionSink, type PipelineDeps, runCompaction } from "./pipeline.ts";
import { type RestoreOutcome, type RestoreSession, recompact, uncompact } from "./uncompact.ts";

export const MAX_CONSECUTIVE_AUTO_FAILURES = 3;

/**
 * What the controller needs of a session: the atomic compaction commit and an id for notifications, and
 * for `/uncompact` the log-backed restore (a session without it cannot be uncompacted).
 */
export interface ControllerSession extends CompactionSink, Partial<RestoreSession> {
  readonly id: string;
  /** the state saved by an earlier run of this session (a resumed session keeps its trigger and breaker) */
  readonly compactionState?: CompactionState | undefined;
  saveCompactionState?(state: CompactionState): void;
}

export interface ControllerDeps {
  hooks: HookRunner;
  provider: Provider;
  model: ModelInfo & { name: string };
  policy: { reserve_tokens?: number; trigger_ratio: number; rearm_ratio: number };
  workspace: string;
  session: ControllerSession;
  emit: EmitEvent;
  /** the manifest the hooks run, to name the modules in each compaction record */
  manifest?: Manifest;
  /**
   * Which compactor this run has (compactor-identity.ts). A breaker opened against another one is closed
   * at start: the failures were that compactor's.
   */
  compactor?: string;
  /** awaited before an announced compaction starts (the user's PreCompact hooks) */
  beforeCompaction?: (reason: CompactionReason, instructions?: string) => Promise<void>;
}

export class CompactionController {
  private armed = true;
  private failures = 0;
  private usage: UsageSample | undefined;
  /** why the compactor last declined, for the error when declining leaves the request over the limit */
  private lastDecline = "";
  private readonly told = new Set<string>();
  /** said at the first request: the console is not listening yet while the controller is built */
  private pendingNotice: string | undefined;
  private readonly pipeline: PipelineDeps;
  /**
   * A replacement compactor may choose its own trigger, so it is asked before every request.
   * The built-in one follows the budget's recommendation and would decline anyway: not asking it when
   * nothing is recommended saves a full-history round trip per request.
   */
  private readonly ownTrigger: boolean;

  constructor(private readonly deps: ControllerDeps) {
    const saved = deps.session.compactionState;
    if (saved) {
      this.armed = saved.armed;
      this.failures = saved.failures;
      const changed =
        deps.compactor !== undefined && saved.compactor !== undefined && saved.compactor !== deps.compactor;
      // Failures are the compactor's they were counted against: another one starts from none.
      if (changed && this.breakerOpen)
        this.pendingNotice =
          "the compactor changed (another binding or configuration) since automatic compaction was paused after repeated failures: it is on again";
      if (changed) this.failures = 0;
    }
    this.ownTrigger = (deps.manifest?.hooks.compact_plan ?? []).some((ref) => !ref.builtin);
    const policy: BudgetPolicy = { ...deps.policy };
    this.pipeline = {
      hooks: deps.hooks,
      provider: deps.provider,
      model: deps.model,
      policy,
      workspace: deps.workspace,
      session: deps.session,
      modules: compactionModules(deps.manifest),
      onStreamEvent: (ev) => {
        if (ev.type === "retry") deps.emit(ev);
      },
      onNote: (message) => deps.emit({ type: "notice", level: "info", message: `compaction: ${message}` }),
    };
  }

  /** The user switched models (`/model`): budgets and summaries follow the new one's limits. */
  setModel(model: ModelInfo & { name: string }): void {
    this.deps.model = model;
    this.pipeline.model = model;
  }

  /**
   * A budget reading of `history` for the current model, emitted as a `budget` event and nothing more
   * (after `/model`, so the context figure shows the new window at once). No compaction runs; without a
   * budget module there is nothing to read.
   */
  async measure(history: History, tools: ToolDecl[]): Promise<void> {
    if (!this.deps.hooks.hasHook("budget")) return;
    this.emitReading((await this.read(history, tools)).budget);
  }

  private emitReading(b: BudgetReading["budget"]): number {
    const total = effectiveTotal(b);
    this.deps.emit({
      type: "budget",
      total,
      hard_limit: b.hard_limit,
      context_window: b.context_window ?? this.deps.model.context_window,
      ratio: b.ratio ?? total / b.hard_limit,
      recommendation: b.recommendation,
    });
    return total;
  }

  /** Consecutive failed automatic compactions (3 opens the breaker). */
  get consecutiveFailures(): number {
    return this.failures;
  }

  get breakerOpen(): boolean {
    return this.failures >= MAX_CONSECUTIVE_AUTO_FAILURES;
  }

  /** The hysteresis state handed to the budget module (owned here so it survives worker restarts). */
  get isArmed(): boolean {
    return this.armed;
  }

  /**
   * Before a model request: the budget read, and an automatic compaction when it is due. `signal` is the
   * running turn's: it stops a summary request in flight, and a compaction that ends while it is aborted
   * was cancelled by the user — their choice, not a failure, so the circuit breaker's count stays.
   */
  async prepareRequest(history: History, tools: ToolDecl[], signal?: AbortSignal): Promise<History> {
    const { hooks } = this.deps;
    if (this.pendingNotice) {
      // The pause was a warning; its end is said on the same channel, or print mode would never show it.
      this.deps.emit({ type: "notice", level: "warn", message: this.pendingNotice });
      this.pendingNotice = undefined;
      this.persist();
    }
    if (!hooks.hasHook("budget")) {
      this.tellOnce(
        "no-budget",
        "warn",
        "no budget module is active: context use is not estimated, the hard limit is not enforced before requests, and automatic compaction cannot run",
      );
      return history;
    }
    let reading: BudgetReading;
    try {
      reading = await this.read(history, tools);
    } catch (err) {
      // Not a compaction failure: none ran. The budget module's own error, as the user sees it.
      if (err instanceof CompactionError && err.step === "budget") throw new BudgetCheckError(err.detail);
      throw err;
    }
    const b = reading.budget;
    if (b.armed !== undefined) this.armed = b.armed;
    this.persist();
    const total = this.emitReading(b);
    if (b.images_unknown) {
      this.tellOnce(
        "images-unknown",
        "info",
        `the history holds images but image_tokens is unknown for model ${this.deps.model.name}, so images are left out of the context estimate; set models.${this.deps.model.name}.image_tokens in config.json`,
      );
    }
    const recommended = b.recommendation !== "none";
    if (logOn()) log("debug", "compaction", this.decision(total, b.hard_limit, b.recommendation, hooks));
    if (!recommended && !this.ownTrigger) return history;
    const over = b.recommendation === "over";
    if (!hooks.hasHook("compact_plan")) {
      if (over) {
        throw new BudgetExceededError(
          total,
          b.hard_limit,
          "no compactor is active (the profile or plugins.json leaves compact out) and there is no automatic fallback; start a new session or enable the compact module",
        );
      }
      this.tellOnce(
        "no-compactor",
        "warn",
        `context is at ${Math.round((total / b.hard_limit) * 100)}% of the hard limit and no compactor is active; the run will stop when the limit is reached`,
      );
      return history;
    }
    if (!recommended && this.breakerOpen) return history;
    if (this.breakerOpen) {
      if (over) {
        throw new BudgetExceededError(
          total,
          b.hard_limit,
          `automatic compaction is paused after ${MAX_CONSECUTIVE_AUTO_FAILURES} consecutive failures; run /compact or \`i compact\` to compact manually`,
        );
      }
      return history;
    }
    try {
      // Unrecommended (a replacement's own trigger): stay quiet unless it actually cuts.
      const next = await this.compact(history, tools, "auto", {
        force: false,
        baseline: reading,
        quiet: !recommended,
        signal,
      });
      if (logOn()) log("debug", "compaction", next ? "compacted" : `declined: ${this.lastDecline}`);
      if (next) return next;
      if (over)
        throw new BudgetExceededError(total, b.hard_limit, `the compactor declined: ${this.lastDecline}`);
      return history;
    } catch (err) {
      // Cancelled: the caller sees its aborted signal and ends the turn as interrupted, not as too long.
      if (err instanceof CompactionError && signal?.aborted) return history;
      if (err instanceof CompactionError && over)
        throw new BudgetExceededError(total, b.hard_limit, err.message);
      if (err instanceof CompactionError) return history; // still fits: the run goes on, the failure was reported
      throw err;
    }
  }

  /** The debug log's line for one budget reading: what it says, and what happens because of it. */
  private decision(total: number, limit: number, rec: string, hooks: HookRunner): string {
    const what =
      rec === "none" && !this.ownTrigger
        ? "nothing to do"
        : !hooks.hasHook("compact_plan")
          ? "no compactor is active"
          : this.breakerOpen
            ? "automatic compaction is paused (breaker open)"
            : "asking the compactor";
    return `${total}/${limit} tokens, recommendation ${rec}: ${what}`;
  }

  async compactNow(
    history: History,
    tools: ToolDecl[],
    opts: { instructions?: string; signal?: AbortSignal } = {},
  ): Promise<History> {
    const next = await this.compact(history, tools, "manual", {
      force: true,
      ...(opts.instructions ? { instructions: opts.instructions } : {}),
      signal: opts.signal,
    });
    if (!next) throw new CompactionError("compact_plan", `the compactor declined: ${this.lastDecline}`);
    return next;
  }

  async recoverFromOverflow(history: History, tools: ToolDecl[], signal?: AbortSignal): Promise<History> {
    if (!this.deps.hooks.hasHook("compact_plan")) {
      throw new CompactionError(
        "compact_plan",
        "the provider reported a context overflow and no compactor is active (the profile or plugins.json leaves compact out); start a new session or enable the compact module",
      );
    }
    if (this.breakerOpen) {
      throw new CompactionError(
        "compact_plan",
        `the provider reported a context overflow, and automatic compaction is paused after ${MAX_CONSECUTIVE_AUTO_FAILURES} consecutive failures; run /compact or \`i compact\``,
      );
    }
    // Our estimate said the request fit, the provider disagreed: usage-based calibration is suspect.
    this.usage = undefined;
    const next = await this.compact(history, tools, "overflow", { force: true, signal });
    if (!next) {
      throw new CompactionError(
        "compact_plan",
        `the provider reported a context overflow and the compactor declined: ${this.lastDecline}`,
      );
    }
    return next;
  }

  /**
   * `/uncompact [N]`: the history before compaction N (default the last) with what came after, when it
   * fits below the trigger of the current model. The agent takes the history on success.
   */
  async uncompact(history: History, tools: ToolDecl[], n?: number): Promise<RestoreOutcome> {
    const session = restoreSession(this.deps.session);
    if (!session) return { ok: false, why: "this session keeps no log to uncompact from" };
    const outcome = await uncompact(
      {
        hooks: this.deps.hooks,
        model: budgetModel(this.deps.model),
        policy: this.pipeline.policy,
        tools,
        session,
      },
      history,
      n,
    );
    if (outcome.ok) this.usage = undefined;
    return outcome;
  }

  /** Undo the last uncompaction: the compacted history it replaced, with what was added since. */
  recompact(history: History): RestoreOutcome {
    const session = restoreSession(this.deps.session);
    if (!session) return { ok: false, why: "this session keeps no log to restore from" };
    const outcome = recompact({ session }, history);
    if (outcome.ok) this.usage = undefined;
    return outcome;
  }

  recordUsage(usage: Usage, messagesCovered: number): void {
    if (usage.input_tokens > 0 && messagesCovered > 0) {
      this.usage = { input_tokens: usage.input_tokens, messages: messagesCovered };
    }
  }

  /** The last usage sample, while the messages it covered are still all in `history`. */
  private usageFor(history: History): UsageSample | undefined {
    return this.usage && this.usage.messages <= history.length ? this.usage : undefined;
  }

  private async read(history: History, tools: readonly ToolDecl[]): Promise<BudgetReading> {
    const usage = this.usageFor(history);
    return readBudget(this.deps.hooks, budgetModel(this.deps.model), this.pipeline.policy, {
      history,
      tools,
      armed: this.armed,
      ...(usage ? { usage } : {}),
    });
  }

  /** One compaction attempt with its events; undefined when the compactor declined. Throws CompactionError. */
  private async compact(
    history: History,
    tools: readonly ToolDecl[],
    reason: CompactionReason,
    opts: {
      force: boolean;
      instructions?: string;
      baseline?: BudgetReading;
      quiet?: boolean;
      signal: AbortSignal | undefined;
    },
  ): Promise<History | undefined> {
    const { emit } = this.deps;
    const automatic = reason !== "manual";
    let announced = false;
    const announce = () => {
      if (announced) return;
      announced = true;
      emit({ type: "compaction", phase: "start", reason });
    };
    if (!opts.quiet) announce();
    if (!opts.quiet) await this.deps.beforeCompaction?.(reason, opts.instructions);
    let outcome: Awaited<ReturnType<typeof runCompaction>>;
    try {
      // runCompaction refuses first thing when no budget module could give a comparable estimate.
      const usage = this.usageFor(history);
      outcome = await runCompaction(this.pipeline, {
        history,
        tools,
        reason,
        force: opts.force,
        armed: this.armed,
        ...(opts.instructions ? { instructions: opts.instructions } : {}),
        ...(opts.baseline ? { baseline: opts.baseline } : {}),
        ...(usage ? { usage } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onCut: announce,
        onStep: (step) => {
          if (announced) emit({ type: "compaction_step", reason, step });
        },
      });
    } catch (err) {
      const error =
        err instanceof CompactionError ? err : new CompactionError("compact_plan", errorMessage(err));
      announce();
      emit({ type: "compaction", phase: "failed", reason, error: error.message });
      // Cancelled by the user (Ctrl-C/Esc): their choice, not a failure of the compactor.
      if (automatic && !opts.signal?.aborted) this.countFailure();
      throw error;
    }
    if (outcome.status === "declined") {
      this.lastDecline = outcome.reason;
      if (announced) emit({ type: "compaction", phase: "skipped", reason, error: outcome.reason });
      return undefined;
    }
    const wasOpen = this.breakerOpen;
    this.failures = 0;
    this.usage = undefined;
    this.armed = outcome.after.armed ?? true;
    this.persist();
    emit({
      type: "compaction",
      phase: "done",
      reason,
      cut: outcome.record.cut,
      before_tokens: outcome.record.before_tokens,
      after_tokens: outcome.record.after_tokens,
      route: outcome.record.route,
      ...(outcome.record.route !== "prune" ? { summarised: Math.max(0, outcome.record.cut - 1) } : {}),
    });
    // The context use the next request will see, so the console's meter does not lag a compaction behind.
    const after = outcome.after;
    emit({
      type: "budget",
      total: outcome.effectiveAfter,
      hard_limit: after.hard_limit,
      context_window: after.context_window ?? this.deps.model.context_window,
      ratio: outcome.effectiveAfter / after.hard_limit,
      recommendation: "none",
    });
    if (wasOpen)
      emit({
        type: "notice",
        level: "warn",
        message: "compaction succeeded: automatic compaction is on again",
      });
    this.notifyCheckpoint(outcome.history.length);
    return outcome.history;
  }

  /** The trigger and breaker state goes into the session (written only when it changed). */
  private persist(): void {
    const { compactor } = this.deps;
    this.deps.session.saveCompactionState?.({
      armed: this.armed,
      failures: this.failures,
      ...(compactor !== undefined ? { compactor } : {}),
    });
  }

  private countFailure(): void {
    this.failures++;
    this.persist();
    if (this.failures === MAX_CONSECUTIVE_AUTO_FAILURES) {
      this.deps.emit({
        type: "notice",
        level: "warn",
        message: `automatic compaction failed ${MAX_CONSECUTIVE_AUTO_FAILURES} times in a row and is paused; run /compact (or \`i compact\`) to compact manually, which turns it back on when it succeeds`,
      });
    }
  }

  /** The committed candidate went through the session like any checkpoint: tell checkpoint observers. */
  private notifyCheckpoint(messages: number): void {
    const { hooks } = this.deps;
    if (!hooks.hasHook("checkpoint")) return;
    hooks
      .runHook("checkpoint", { session_id: this.deps.session.id, messages, reason: "compaction" })
      .catch((err: unknown) =>
        this.deps.emit({ type: "notice", level: "warn", message: `checkpoint hook: ${errorMessage(err)}` }),
      );
  }

  private tellOnce(key: string, level: "info" | "warn", message: string): void {
    if (this.told.has(key)) return;
    this.told.add(key);
    this.deps.emit({ type: "notice", level, message });
  }
}

function restoreSession(s: ControllerSession): RestoreSession | undefined {
  const { compactionCount, historyBeforeCompaction, historyBeforeUncompaction, restoreHistory } = s;
  if (!compactionCount || !historyBeforeCompaction || !historyBeforeUncompaction || !restoreHistory)
    return undefined;
  return {
    compactionCount: () => compactionCount.call(s),
    historyBeforeCompaction: (n, current) => historyBeforeCompaction.call(s, n, current),
    historyBeforeUncompaction: (current) => historyBeforeUncompaction.call(s, current),
    restoreHistory: (h, tag) => restoreHistory.call(s, h, tag),
  };
}
