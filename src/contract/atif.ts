// A session as an ATIF trajectory (the Agent Trajectory Interchange Format, Harbor's RFC 0001, v1.7):
// what `i sessions --export ID --format atif` and `i -p --trajectory FILE` write, and what evaluation
// harnesses (Harbor, Terminal-Bench) read. Written from the RFC: every object refuses unknown fields (the
// RFC's models do); `extra` is each level's place for anything else. The rules a JSON Schema cannot say —
// step ids sequential from 1, an observation naming a tool call of its own step, agent-only fields,
// embedded sub-agents resolvable by a unique trajectory_id — are the refinements below
// (schemas/atif.json, generated from this file, carries the shape).
import { z } from "zod";

export const ATIF_VERSION = "ATIF-v1.7";

const Extra = z.record(z.string(), z.unknown());
const Tokens = z.number().int().nonnegative();

/** An image a message or an observation holds: a file path, or a URL (a data: URL keeps it inline). */
export const AtifImageSource = z.strictObject({
  media_type: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
  path: z.string().min(1),
});

/** One part of a message or an observation that mixes text and images (v1.6). */
export const AtifContentPart = z.strictObject({
  type: z.enum(["text", "image"]),
  text: z.string().optional(),
  source: AtifImageSource.optional(),
});

const AtifContent = z.union([z.string(), z.array(AtifContentPart)]);

export const AtifToolCall = z.strictObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: Extra,
  extra: Extra.optional(),
});

/** Where an embedded (trajectory_id) or external (trajectory_path) sub-agent trajectory is (v1.7). */
export const AtifSubagentRef = z
  .strictObject({
    /** informational only: not a resolution key */
    session_id: z.string().optional(),
    trajectory_id: z.string().optional(),
    trajectory_path: z.string().optional(),
    extra: Extra.optional(),
  })
  .refine((r) => r.trajectory_id !== undefined || r.trajectory_path !== undefined, {
    message: "a sub-agent reference needs trajectory_id or trajectory_path",
  });

export const AtifObservationResult = z.strictObject({
  source_call_id: z.string().optional(),
  content: AtifContent.optional(),
  subagent_trajectory_ref: z.array(AtifSubagentRef).optional(),
  extra: Extra.optional(),
});

export const AtifMetrics = z.strictObject({
  prompt_tokens: Tokens.optional(),
  completion_tokens: Tokens.optional(),
  /** the part of prompt_tokens served from the provider's cache */
  cached_tokens: Tokens.optional(),
  cost_usd: z.number().nonnegative().optional(),
  prompt_token_ids: z.array(z.number().int()).optional(),
  completion_token_ids: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  extra: Extra.optional(),
});

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const AtifStep = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: z.string().regex(ISO_TIME, "must be an ISO 8601 time").optional(),
    source: z.enum(["system", "user", "agent"]),
    model_name: z.string().optional(),
    reasoning_effort: z.union([z.string(), z.number()]).optional(),
    message: AtifContent,
    reasoning_content: z.string().optional(),
    tool_calls: z.array(AtifToolCall).optional(),
    observation: z.strictObject({ results: z.array(AtifObservationResult) }).optional(),
    metrics: AtifMetrics.optional(),
    /** model requests this step stands for */
    llm_call_count: Tokens.optional(),
    /** a step a compaction carried over (restored) rather than one that happened here */
    is_copied_context: z.boolean().optional(),
    extra: Extra.optional(),
  })
  .superRefine((s, ctx) => {
    if (s.source === "agent") return;
    for (const f of ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"] as const)
      if (s[f] !== undefined)
        ctx.addIssue({ code: "custom", path: [f], message: `${f} is for agent steps only` });
  });

export type AtifStep = z.infer<typeof AtifStep>;
export type AtifContentPart = z.infer<typeof AtifContentPart>;
export type AtifToolCall = z.infer<typeof AtifToolCall>;

export const AtifFinalMetrics = z.strictObject({
  total_prompt_tokens: Tokens.optional(),
  total_completion_tokens: Tokens.optional(),
  total_cached_tokens: Tokens.optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  total_steps: Tokens.optional(),
  extra: Extra.optional(),
});

export const AtifAgent = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  model_name: z.string().optional(),
  tool_definitions: z.array(Extra).optional(),
  extra: Extra.optional(),
});

export interface AtifTrajectory {
  schema_version: string;
  session_id?: string | undefined;
  trajectory_id?: string | undefined;
  agent: z.infer<typeof AtifAgent>;
  steps: z.infer<typeof AtifStep>[];
  notes?: string | undefined;
  final_metrics?: z.infer<typeof AtifFinalMetrics> | undefined;
  continued_trajectory_ref?: string | undefined;
  extra?: Record<string, unknown> | undefined;
  subagent_trajectories?: AtifTrajectory[] | undefined;
}

export const AtifTrajectory: z.ZodType<AtifTrajectory> = z.lazy(() =>
  z
    .strictObject({
      schema_version: z.string().regex(/^ATIF-v1\.\d+$/, 'must be "ATIF-v1.N"'),
      session_id: z.string().optional(),
      trajectory_id: z.string().optional(),
      agent: AtifAgent,
      steps: z.array(AtifStep),
      notes: z.string().optional(),
      final_metrics: AtifFinalMetrics.optional(),
      continued_trajectory_ref: z.string().optional(),
      extra: Extra.optional(),
      subagent_trajectories: z.array(AtifTrajectory).optional(),
    })
    .superRefine(checkTrajectory),
);

/** The RFC's rules across fields (its validators): ids, call references, embedded sub-agents. */
function checkTrajectory(t: AtifTrajectory, ctx: z.RefinementCtx): void {
  t.steps.forEach((s, i) => {
    if (s.step_id !== i + 1)
      ctx.addIssue({ code: "custom", path: ["steps", i, "step_id"], message: `expected step_id ${i + 1}` });
    const calls = new Set((s.tool_calls ?? []).map((c) => c.tool_call_id));
    s.observation?.results.forEach((r, j) => {
      if (r.source_call_id !== undefined && !calls.has(r.source_call_id))
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "observation", "results", j, "source_call_id"],
          message: `${r.source_call_id} is not a tool call of step ${s.step_id}`,
        });
    });
  });
  const embedded = new Set<string>();
  (t.subagent_trajectories ?? []).forEach((sub, i) => {
    if (sub.trajectory_id === undefined || embedded.has(sub.trajectory_id))
      ctx.addIssue({
        code: "custom",
        path: ["subagent_trajectories", i, "trajectory_id"],
        message: "an embedded sub-agent trajectory needs a trajectory_id of its own",
      });
    else embedded.add(sub.trajectory_id);
  });
  t.steps.forEach((s, i) => {
    for (const r of s.observation?.results ?? [])
      for (const ref of r.subagent_trajectory_ref ?? [])
        if (
          ref.trajectory_path === undefined &&
          ref.trajectory_id !== undefined &&
          !embedded.has(ref.trajectory_id)
        )
          ctx.addIssue({
            code: "custom",
            path: ["steps", i, "observation"],
            message: `sub-agent trajectory ${ref.trajectory_id} is neither embedded nor given a trajectory_path`,
          });
  });
}
