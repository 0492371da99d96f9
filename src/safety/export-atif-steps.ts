// A session's messages as ATIF steps: the system prompt and added notes as system steps, what the user
// typed as user steps, each model reply as an agent step with its reasoning, tool calls, the results of
// those calls as the step's observations, and its tokens and cost; a compaction's summary as a system step
// that says what it summarised. Images become content parts with an inline data: URL.
import type { AtifContentPart, AtifStep, AtifToolCall } from "../contract/atif.ts";
import type { CompactionReport } from "../contract/compactions.ts";
import { type Content, contentText, type Message } from "../contract/history.ts";
import type { Usage } from "../contract/usage.ts";

type Step = AtifStep;
type Part = AtifContentPart;
type Call = AtifToolCall;

/** A task call's child trajectory, by the call's id (embedded under this trajectory_id). */
export type SubagentIds = ReadonlyMap<string, { trajectory_id: string; session_id: string }>;

const MEDIA = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function atifContent(content: Content): string | Part[] {
  if (typeof content === "string") return content;
  if (!content.some((p) => p.type === "image")) return contentText(content);
  return content.map((p): Part => {
    if (p.type === "text") return { type: "text", text: p.text };
    // A media type ATIF has no name for is said in words rather than mislabelled.
    if (!MEDIA.has(p.media_type)) return { type: "text", text: `[image ${p.media_type}]` };
    return {
      type: "image",
      source: {
        media_type: p.media_type as "image/png",
        path: `data:${p.media_type};base64,${p.data}`,
      },
    };
  });
}

/** The arguments as an object: JSON that is not one (or not JSON at all) is kept whole under `input`. */
function callArguments(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {}
  return { input: raw };
}

function metrics(m: Message): Step["metrics"] {
  const u = m.meta?.usage as Usage | undefined;
  if (!u || typeof u.input_tokens !== "number") return undefined;
  const cost = m.meta?.cost_usd;
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    ...(u.cache_read_tokens !== undefined ? { cached_tokens: u.cache_read_tokens } : {}),
    ...(typeof cost === "number" ? { cost_usd: cost } : {}),
    ...(u.cache_write_tokens !== undefined ? { extra: { cache_write_tokens: u.cache_write_tokens } } : {}),
  };
}

function ts(m: Message): { timestamp?: string } {
  const t = m.meta?.ts;
  return typeof t === "string" && !Number.isNaN(Date.parse(t))
    ? { timestamp: new Date(t).toISOString() }
    : {};
}

/** A user-role message nobody typed: an approval-mode note, a hook's context, an interruption. */
function isAdded(m: Message): boolean {
  const meta = m.meta ?? {};
  return typeof meta.approval_mode === "string" || typeof meta.hook === "string" || meta.interrupted === true;
}

function compactionText(r: CompactionReport | undefined, summary: string): string {
  if (!r) return `Compaction: the earlier conversation was summarised.\n\n${summary}`;
  const how = [r.reason, r.route].filter(Boolean).join(", ");
  const tokens =
    r.tokens_before !== undefined && r.tokens_after !== undefined
      ? `, ${r.tokens_before} → ${r.tokens_after} tokens`
      : "";
  return `Compaction ${r.number}${how ? ` (${how})` : ""}: summarised ${r.dropped.length} earlier messages${tokens}.\n\n${summary}`;
}

export interface StepInput {
  messages: readonly Message[];
  /** the session's compactions in commit order: the Nth summary message is the Nth with a summary */
  compactions: readonly CompactionReport[];
  subagents: SubagentIds;
  /** the model a reply names none of (sessions saved before replies recorded theirs) */
  model?: string;
}

/** The steps, numbered from 1. */
export function atifSteps(input: StepInput): Step[] {
  const steps: Step[] = [];
  const answered = new Set<string>();
  const summarising = input.compactions.filter((c) => c.summary !== undefined);
  let summaries = 0;
  let open: Step | undefined;
  const push = (s: Omit<Step, "step_id">) => {
    const step = { step_id: steps.length + 1, ...s } as Step;
    steps.push(step);
    return step;
  };
  for (const m of input.messages) {
    if (m.role !== "tool") open = undefined;
    if (m.role === "system") push({ source: "system", ...ts(m), message: contentText(m.content) });
    else if (m.role === "user" && m.meta?.summary === true) {
      const report = summarising[summaries++];
      push({
        source: "system",
        ...ts(m),
        message: compactionText(report, contentText(m.content)),
        extra: {
          compaction: {
            ...(report ? { number: report.number, reason: report.reason, route: report.route } : {}),
            ...(report ? { summarised_messages: report.dropped.length, kept_messages: report.kept } : {}),
          },
        },
      });
    } else if (m.role === "user")
      push({
        source: isAdded(m) ? "system" : "user",
        ...ts(m),
        message: atifContent(m.content),
        ...(m.meta?.restored === true ? { is_copied_context: true } : {}),
      });
    else if (m.role === "assistant") open = push(agentStep(m, input.model));
    else if (m.role === "tool") toolResult(m, open, answered, input.subagents, push);
  }
  return steps;
}

function agentStep(m: Message, fallbackModel: string | undefined): Omit<Step, "step_id"> {
  const model = typeof m.meta?.model === "string" ? m.meta.model : fallbackModel;
  const reasoning = m.meta?.reasoning;
  const calls = (m.tool_calls ?? []).map(
    (c): Call => ({ tool_call_id: c.id, function_name: c.name, arguments: callArguments(c.arguments) }),
  );
  const met = metrics(m);
  return {
    source: "agent",
    ...ts(m),
    ...(model ? { model_name: model } : {}),
    message: atifContent(m.content),
    ...(typeof reasoning === "string" && reasoning !== "" ? { reasoning_content: reasoning } : {}),
    ...(calls.length ? { tool_calls: calls } : {}),
    ...(met ? { metrics: met, llm_call_count: 1 } : {}),
  };
}

/**
 * A tool result joins the observation of the step that made its call. A result the log holds twice (a
 * pruned or restored copy) is the same observation: left out. One whose call is not in the step before
 * it stands as a system step's observation, with no call to name.
 */
function toolResult(
  m: Message,
  open: Step | undefined,
  answered: Set<string>,
  subagents: SubagentIds,
  push: (s: Omit<Step, "step_id">) => Step,
): void {
  const id = m.tool_call_id ?? "";
  if (answered.has(id)) return;
  answered.add(id);
  const sub = subagents.get(id);
  const result = {
    content: atifContent(m.content),
    ...(sub
      ? { subagent_trajectory_ref: [{ trajectory_id: sub.trajectory_id, session_id: sub.session_id }] }
      : {}),
    ...(m.meta?.is_error === true ? { extra: { is_error: true } } : {}),
  };
  if (open?.tool_calls?.some((c) => c.tool_call_id === id)) {
    open.observation ??= { results: [] };
    open.observation.results.push({ source_call_id: id, ...result });
    return;
  }
  push({ source: "system", ...ts(m), message: "", observation: { results: [result] } });
}
