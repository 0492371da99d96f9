// The data the core exchanges with budget and compaction workers. These zod
// schemas are the single source of truth: the built-in workers, the example replacements and the core's
// checks all use them. Every object is loose (extra keys allowed) because hook data flows through a
// pipeline of modules and each must hand back what it received, unrelated fields included.
import { z } from "zod";
import { ImagesPolicy, MAX_PROMPT_CHARS } from "./config.ts";
import { CompactionReason, CompactionRoute } from "./events.ts";
import { ImagePart, Message } from "./history.ts";
import { HistorySummary } from "./protocol.ts";

const Count = z.number().int().nonnegative();

/** The model metadata the core hands to budget and compaction hooks. */
export const BudgetModel = z.lazy(() =>
  z.looseObject({
    name: z.string().min(1),
    context_window: z.number().int().positive(),
    max_output_tokens: z.number().int().positive().optional(),
    images: ImagesPolicy.optional(),
    image_tokens: Count.optional(),
  }),
);
export type BudgetModel = z.infer<typeof BudgetModel>;

/** budget.json, resolved: ratios always present, reserve defaulted by the budget module when absent. */
export const BudgetPolicy = z.lazy(() =>
  z.looseObject({
    reserve_tokens: Count.optional(),
    trigger_ratio: z.number().gt(0).lt(1),
    rearm_ratio: z.number().gt(0).lt(1),
  }),
);
export type BudgetPolicy = z.infer<typeof BudgetPolicy>;

/** Real usage of the last model response: its input tokens covered history[0..messages). */
export const UsageSample = z.strictObject({ input_tokens: Count, messages: Count });
export type UsageSample = z.infer<typeof UsageSample>;

/** Hysteresis state. The core owns it (so it survives worker restarts) and passes it on every call. */
export const BudgetState = z.looseObject({ armed: z.boolean() });

/**
 * Input of the `budget` hook. `history` is not described here on purpose: the budget module reads it
 * defensively instead of re-validating megabytes of messages the core has already validated.
 */
export const BudgetInput = z.lazy(() =>
  z.looseObject({
    model: BudgetModel,
    policy: BudgetPolicy,
    /** the system prompt as sent; absent → the text of history[0] */
    system: z.string().optional(),
    tools: z.array(z.looseObject({ name: z.string() })).optional(),
    /** the full history, or (for a module that declared `"budget": "summary"` at hello) `history_summary` */
    history: z.array(z.unknown()).optional(),
    history_summary: HistorySummary.optional(),
    usage: UsageSample.optional(),
    state: BudgetState.optional(),
  }),
);
export type BudgetInput = z.infer<typeof BudgetInput>;

export const Recommendation = z.enum(["none", "compact", "over"]);
export type Recommendation = z.infer<typeof Recommendation>;

/** Two estimates are comparable only when they come from the same estimator id and version. */
export const EstimatorId = z.lazy(() =>
  z.looseObject({ id: z.string().min(1), version: z.union([z.string(), Count]) }),
);
export type EstimatorId = z.infer<typeof EstimatorId>;

/**
 * What a budget provider adds to the data, as `budget`. `estimates` are raw, content-determined figures
 * (comparable across calls of one estimator); `effective_total` is the figure calibrated with real usage,
 * which the ratio and the recommendation are based on.
 */
export const BudgetResult = z.lazy(() =>
  z.looseObject({
    estimator: EstimatorId,
    estimates: z.looseObject({
      total: Count,
      system: Count.optional(),
      tools: Count.optional(),
      messages: Count.optional(),
      images: Count.optional(),
    }),
    effective_total: Count.optional(),
    context_window: Count.optional(),
    reserve: Count.optional(),
    hard_limit: z.number().int().positive(),
    ratio: z.number().nonnegative().optional(),
    recommendation: Recommendation,
    armed: z.boolean().optional(),
    /** history holds images but the model's image_tokens is unknown: they are not in the estimate */
    images_unknown: z.literal(true).optional(),
    calibrated: z.boolean().optional(),
    /** effective_total / estimates.total when calibrated */
    calibration_factor: z.number().positive().optional(),
  }),
);
export type BudgetResult = z.infer<typeof BudgetResult>;

export const BudgetOutput = z.looseObject({ budget: BudgetResult });

/** `compact_plan` reply: cut null declines; state is opaque to the core and handed back later. */
export const PlanReply = z.lazy(() =>
  z.looseObject({
    cut: z.union([z.number(), z.null()]),
    state: z.unknown().optional(),
    /** why a compactor declined (shown to the user), optional */
    decline_reason: z.string().optional(),
  }),
);

/** `before_compact`, model-assisted route: the core renders `messages` and asks the model itself. */
export const ModelRouteReply = z.lazy(() =>
  z.looseObject({
    prompt: z
      .string()
      .refine((s) => s.trim().length > 0, "must be a nonempty string")
      .refine((s) => s.length <= MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`),
    messages: z.array(Message),
    summary_images: z.array(ImagePart).optional(),
    retained_images: z.array(ImagePart).optional(),
  }),
);

/** `before_compact`, local route: the compactor wrote the summary itself; no summary request is made. */
export const LocalRouteReply = z.lazy(() =>
  z.looseObject({
    summary: z.string().refine((s) => s.trim().length > 0, "must be a nonempty string"),
    retained_images: z.array(ImagePart).optional(),
  }),
);

export const AfterCompactReply = z.lazy(() =>
  z.looseObject({
    summary: z.string().refine((s) => s.trim().length > 0, "must be a nonempty string"),
  }),
);

/**
 * `before_compact_commit` reply. The messages are not described here: the candidate goes through the
 * hand-written history validation next (checkCandidateShape), which is as strict as the schema and far
 * cheaper on a long recent suffix.
 */
export const CommitReply = z.looseObject({ candidate: z.array(z.unknown()) });

/** What `session.commitCompaction` records about one compaction (events.jsonl and the compaction event). */
export const CompactionRecord = z.lazy(() =>
  z.looseObject({
    reason: CompactionReason,
    route: CompactionRoute,
    cut: Count,
    messages_before: Count,
    messages_after: Count,
    estimator: EstimatorId,
    /** raw comparable estimates before and after */
    before_tokens: Count,
    after_tokens: Count,
    summary_chars: Count,
    /** model requests the summary took (0 on the local and prune routes) */
    summary_requests: Count,
    /** modules that declare the compaction hooks, in pipeline order */
    modules: z.array(z.string()),
    duration_ms: z.number().nonnegative(),
  }),
);
export type CompactionRecord = z.infer<typeof CompactionRecord>;
