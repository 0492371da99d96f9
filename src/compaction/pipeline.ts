// The compaction pipeline: baseline → compact_plan → before_compact → summary (model
// or local) → after_compact → candidate → before_compact_commit → checks → commit. Any failure throws a
// CompactionError naming the step; nothing is committed before the last check passes, and no tool runs.

import type { z } from "zod";
import {
  type BudgetPolicy,
  type BudgetResult,
  CommitReply,
  type CompactionRecord,
  LocalRouteReply,
  ModelRouteReply,
  type UsageSample,
} from "../contract/compaction.ts";
import type { ModelInfo } from "../contract/config.ts";
import { describeIssue, errorMessage } from "../contract/errors.ts";
import type { CompactionStage } from "../contract/events.ts";
import type { History, ImagePart, Message } from "../contract/history.ts";
import type { HookReply } from "../contract/hooks.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import { validateHistory } from "../lib/validate-history.ts";
import type { Provider, StreamEvent } from "../provider/types.ts";
import type { HookData, HookOptions, HookRunner } from "../worker/types.ts";
import { type BudgetReading, budgetModel, readBudget } from "./budget-call.ts";
import {
  checkCandidateBudget,
  checkCandidateShape,
  checkCut,
  checkPruned,
  checkSummarySize,
} from "./checks.ts";
import { CompactionError, type CompactionStep } from "./errors.ts";
import { restoreRoom, withRoomNamed } from "./restore-room.ts";
import { keptTokens, summaryCap } from "./summary-cap.ts";
import { requestSummary } from "./summary-request.ts";
import { wrapSummary } from "./transcript.ts";
import { latestTurnTokens, workRoom } from "./work-room.ts";

/** Where a successful compaction is committed (the session: .precompact.json, history.json, event). */
export interface CompactionSink {
  commitCompaction(before: History, after: History, record: CompactionRecord): void;
}

export interface PipelineDeps {
  hooks: HookRunner;
  provider: Provider;
  model: ModelInfo & { name: string };
  policy: BudgetPolicy;
  workspace: string;
  session: CompactionSink;
  /** module names declaring the compaction hooks, for the record */
  modules?: string[];
  onStreamEvent?: (ev: StreamEvent) => void;
  /** a step worth telling the user (summary chunks, continuations, condensing, image fallbacks) */
  onNote?: (message: string) => void;
}

export interface CompactionRequest {
  history: History;
  tools: readonly ToolDecl[];
  reason: CompactionRecord["reason"];
  /** compact even when the budget does not recommend it (manual, overflow) */
  force: boolean;
  instructions?: string;
  /** a budget reading of exactly this history, taken before planning (saves a round trip) */
  baseline?: BudgetReading;
  usage?: UsageSample;
  armed: boolean;
  /** told the cut as soon as the plan is accepted (the controller announces the compaction then) */
  onCut?: (cut: number) => void;
  /** told each stage as it starts, for a progress display */
  onStep?: (step: CompactionStage) => void;
  /** the running turn's (or /compact's): a cancel stops the summary request in flight */
  signal?: AbortSignal;
}

export type CompactionOutcome =
  | {
      status: "done";
      history: History;
      record: CompactionRecord;
      after: BudgetResult;
      effectiveAfter: number;
    }
  | { status: "declined"; reason: string; baseline: BudgetResult };

const MAX_NOTES = 5;
const MAX_NOTE_CHARS = 500;

type CompactHook = "compact_plan" | "before_compact" | "after_compact" | "before_compact_commit";

async function hook<E extends CompactHook>(
  hooks: HookRunner,
  step: E,
  data: HookData,
  opts?: HookOptions,
): Promise<HookReply<E>> {
  try {
    return await hooks.runHook(step, data, opts);
  } catch (err) {
    throw new CompactionError(step, errorMessage(err));
  }
}

function parseReply<T>(step: CompactionStep, schema: z.ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw new CompactionError(step, describeIssue(what, r.error));
}

/** The untrusted user message carrying the summary, plus any images the compactor chose to retain. */
export function summaryMessage(summary: string, retained: readonly ImagePart[]): Message {
  const text = wrapSummary(summary);
  return {
    role: "user",
    content: retained.length > 0 ? [{ type: "text", text }, ...retained] : text,
    meta: { summary: true, untrusted: true },
  };
}

/** The summary of the local or the model-assisted route, as `before_compact` chose. */
async function summarise(
  deps: PipelineDeps,
  prepared: HookData,
  cap: number,
  signal: AbortSignal | undefined,
): Promise<{ route: "local" | "model"; summary: string; retained: ImagePart[]; requests: number }> {
  if ("summary" in prepared) {
    // Presence of `summary` selects the local route; a malformed one fails, never falls back.
    const local = parseReply("before_compact", LocalRouteReply, prepared, "the local summary");
    return { route: "local", summary: local.summary, retained: local.retained_images ?? [], requests: 0 };
  }
  const m = parseReply("before_compact", ModelRouteReply, prepared, "the summary request preparation");
  const asked = await requestSummary({
    hooks: deps.hooks,
    provider: deps.provider,
    model: budgetModel(deps.model),
    policy: deps.policy,
    cap,
    prompt: m.prompt,
    messages: m.messages,
    summaryImages: m.summary_images ?? [],
    ...(deps.onStreamEvent ? { onEvent: deps.onStreamEvent } : {}),
    ...(deps.onNote ? { onNote: deps.onNote } : {}),
    ...(signal ? { signal } : {}),
  });
  return {
    route: "model",
    summary: asked.summary,
    retained: m.retained_images ?? [],
    requests: asked.requests,
  };
}

export async function runCompaction(deps: PipelineDeps, req: CompactionRequest): Promise<CompactionOutcome> {
  const started = Date.now();
  const { hooks, workspace } = deps;
  const history = req.history;
  const model = budgetModel(deps.model);
  if (!hooks.hasHook("budget")) {
    throw new CompactionError(
      "budget",
      "no budget module in the manifest, so there is no comparable estimate to check a compaction against; enable the budget module",
    );
  }
  if (!hooks.hasHook("compact_plan")) {
    throw new CompactionError(
      "compact_plan",
      "no compactor in the manifest (the profile or plugins.json leaves compact out)",
    );
  }

  // Cut checks rely on a valid history (tool batches whole): never plan on a broken one.
  const invalid = validateHistory(history);
  if (invalid !== undefined)
    throw new CompactionError("validate", `the history to compact is invalid: ${invalid}`);

  // 1. The comparable baseline is captured before planning: a compactor cannot supply its own.
  const baseline =
    req.baseline ??
    (await readBudget(hooks, model, deps.policy, {
      history,
      tools: req.tools,
      armed: req.armed,
      ...(req.usage ? { usage: req.usage } : {}),
    }));

  req.onStep?.("planning");
  // 2. Plan. cut and state start null, so nothing a budget provider left in the data can pose as a plan.
  const plan = await hook(hooks, "compact_plan", {
    ...baseline.data,
    history,
    cut: null,
    state: null,
    force: req.force,
    reason: req.reason,
  });
  if (plan.cut === null) {
    return {
      status: "declined",
      reason: plan.decline_reason ?? "it gave no reason",
      baseline: baseline.budget,
    };
  }
  const cut = checkCut(history, plan.cut);
  // Only what the last compaction produced lies before the cut (its summary and the user messages it
  // carried over): a new summary would restate it and spend a model request for nothing.
  if (history.slice(1, cut).every((m) => m.meta?.summary === true || m.meta?.restored === true)) {
    return {
      status: "declined",
      reason:
        "only the previous compaction's summary lies before the cut, so there is nothing new to summarise",
      baseline: baseline.budget,
    };
  }
  req.onCut?.(cut);
  // How long the summary may be: what the window affords once the cut is known (summary-cap.ts).
  const cap = summaryCap({
    model,
    baseline: baseline.budget,
    kept: keptTokens(history, cut, req.tools, model),
  });
  // Opaque compactor state: planning → preparation → postprocessing → commit, each may update it.
  let state: unknown = plan.state ?? null;

  // 3. Prepare: the compactor sees only history[1..cut], never the system message or the recent suffix.
  const prepareInput: HookData = {
    messages: history.slice(1, cut),
    cut,
    state,
    model,
    policy: deps.policy,
    workspace,
    reason: req.reason,
    summary_cap: cap,
  };
  if (req.instructions) prepareInput.instructions = req.instructions;
  req.onStep?.("summarising");
  const prepared = await hook(hooks, "before_compact", prepareInput);
  if ("state" in prepared) state = prepared.state;
  // `notes`: what a compactor wants the user to know (e.g. an images fallback); a few short lines at most.
  if (Array.isArray(prepared.notes))
    for (const note of prepared.notes.slice(0, MAX_NOTES))
      if (typeof note === "string" && note.trim() !== "") deps.onNote?.(note.slice(0, MAX_NOTE_CHARS));
  const suffix = history.slice(cut);
  let route: CompactionRecord["route"];
  let summary = "";
  let summaryRequests = 0;
  let draft: History;
  if ("pruned" in prepared) {
    // The prune route (an extension of the built-in policy): old tool outputs shortened, nothing
    // summarised, so there is no summary to postprocess; the candidate goes through every commit check.
    route = "prune";
    const pruned = checkPruned(prepareInput.messages as Message[], prepared.pruned);
    draft = [history[0] as Message, ...pruned, ...suffix];
  } else {
    const made = await summarise(deps, prepared, cap, req.signal);
    route = made.route;
    summaryRequests = made.requests;
    // 4. Postprocess.
    const post = await hook(hooks, "after_compact", { summary: made.summary, state });
    summary = post.summary;
    if ("state" in post) state = post.state;
    checkSummarySize(summary, cap, model);
    draft = [history[0] as Message, summaryMessage(summary, made.retained), ...suffix];
  }

  req.onStep?.("validating");
  // 5. Candidate, restoration, checks. The compacted span is not sent again: a compactor that needs it at
  // commit (the built-in one restores files and the user's messages) keeps what it needs in its state.
  // The candidate is checked after each module of the commit pipeline, so a broken one is named.
  // What the commit may add is what the hard limit leaves over the draft, measured by the same budget
  // reading as the fit check below: the summary cap's restore allowance is only a planning figure, and a
  // restoration sized by it alone pushed a candidate with a full summary over the limit.
  const drafted = (
    await readBudget(hooks, model, deps.policy, { history: draft, tools: req.tools, armed: false })
  ).budget;
  const hardRoom = restoreRoom(baseline.budget, drafted);
  // Less what a turn as large as the latest one needs below the trigger, so the next turn does not start
  // another compaction (work-room.ts); the fit check below still bounds it by the hard limit.
  const room = workRoom({
    baseline: baseline.budget,
    draft: drafted,
    policy: deps.policy,
    latestTurn: latestTurnTokens(history),
    hardRoom,
  });
  let checked: unknown;
  const committed = await hook(
    hooks,
    "before_compact_commit",
    {
      candidate: draft,
      ...(route === "prune" ? {} : { summary }),
      route,
      cut,
      state,
      workspace,
      restore_room: room,
    },
    {
      afterEach: (_module, reply) => {
        const next = reply.candidate;
        if (!Array.isArray(next)) return "the reply's candidate is not a list of messages";
        try {
          checkCandidateShape(next as History, history, cut);
        } catch (err) {
          return err instanceof CompactionError ? err.detail : errorMessage(err);
        }
        checked = next;
        return undefined;
      },
    },
  );
  parseReply("before_compact_commit", CommitReply, committed, "the candidate history");
  const candidate = committed.candidate as History;
  // Checked after the module that returned it; a pipeline with no module still gets the check.
  if (candidate !== checked) checkCandidateShape(candidate, history, cut);
  const after = await readBudget(hooks, model, deps.policy, {
    history: candidate,
    tools: req.tools,
    armed: false,
  });
  const effectiveAfter = withRoomNamed(
    () => checkCandidateBudget(baseline.budget, after.budget),
    after.budget.estimates.total - drafted.estimates.total,
    room,
  );

  const record: CompactionRecord = {
    reason: req.reason,
    route,
    cut,
    messages_before: history.length,
    messages_after: candidate.length,
    estimator: baseline.budget.estimator,
    before_tokens: baseline.budget.estimates.total,
    after_tokens: after.budget.estimates.total,
    summary_chars: summary.length,
    summary_requests: summaryRequests,
    modules: deps.modules ?? [],
    duration_ms: Date.now() - started,
  };
  req.onStep?.("committing");
  try {
    deps.session.commitCompaction(history, candidate, record);
  } catch (err) {
    throw new CompactionError("commit", errorMessage(err));
  }
  return { status: "done", history: candidate, record, after: after.budget, effectiveAfter };
}
