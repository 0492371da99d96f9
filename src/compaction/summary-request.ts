// The model-assisted route: the core asks the model for the summary itself (the compactor never sees the
// API key). The request carries no tools, is budget-checked before any HTTP, and must end normally
// without tool calls.

import type { BudgetModel, BudgetPolicy } from "../contract/compaction.ts";
import { errorMessage } from "../contract/errors.ts";
import type { History, ImagePart, Message } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { type Provider, ProviderError, type StreamEvent } from "../provider/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { effectiveTotal, readBudget } from "./budget-call.ts";
import { CompactionError } from "./errors.ts";
import { renderTranscript, wrapTranscript } from "./transcript.ts";

/** A summary longer than this is oversized whatever the window (one compact message, as codex caps it). */
export const SUMMARY_MAX_TOKENS = 20_000;
/** …and it may not take more than this share of the context window. */
export const SUMMARY_MAX_WINDOW_SHARE = 0.25;

export function summaryCap(model: BudgetModel): number {
  return Math.max(
    1,
    Math.min(SUMMARY_MAX_TOKENS, Math.floor(model.context_window * SUMMARY_MAX_WINDOW_SHARE)),
  );
}

export interface SummaryRequestInput {
  hooks: HookRunner;
  provider: Provider;
  model: BudgetModel;
  policy: BudgetPolicy;
  prompt: string;
  messages: Message[];
  summaryImages: ImagePart[];
  onEvent?: (ev: StreamEvent) => void;
}

export function buildSummaryRequest(
  prompt: string,
  messages: readonly Message[],
  images: ImagePart[],
): History {
  const wrapped = wrapTranscript(renderTranscript(messages));
  return [
    { role: "system", content: prompt },
    { role: "user", content: images.length > 0 ? [{ type: "text", text: wrapped }, ...images] : wrapped },
  ];
}

export async function requestSummary(input: SummaryRequestInput): Promise<string> {
  const { model } = input;
  const maxOut = Math.min(summaryCap(model), model.max_output_tokens ?? Number.POSITIVE_INFINITY);
  const request = buildSummaryRequest(input.prompt, input.messages, input.summaryImages);
  // Budget check before HTTP, with room reserved for the summary instead of the usual reserve.
  const check = await readBudget(input.hooks, model, input.policy, {
    history: request,
    tools: [],
    armed: true,
    policy: { ...input.policy, reserve_tokens: maxOut },
  });
  if (check.budget.recommendation === "over") {
    throw new CompactionError(
      "summary_request",
      `the summary request needs about ${effectiveTotal(check.budget)} tokens, over the ${check.budget.hard_limit}-token limit of model ${model.name} (${maxOut} kept for the summary); nothing was sent. Compact more often (lower trigger_ratio in budget.json) or keep fewer recent messages`,
    );
  }
  let res: Awaited<ReturnType<Provider["stream"]>>;
  try {
    res = await input.provider.stream(
      { model: model.name, messages: request, tools: [], max_output_tokens: maxOut },
      input.onEvent,
    );
  } catch (err) {
    const kind = err instanceof ProviderError ? ` (${err.kind})` : "";
    throw new CompactionError(
      "summary_request",
      `the model request for the summary failed${kind}: ${errorMessage(err)}`,
    );
  }
  if (res.message.tool_calls && res.message.tool_calls.length > 0) {
    throw new CompactionError("summary_request", "the model answered the summary request with tool calls");
  }
  if (res.stop !== "end") {
    const why =
      res.stop === "length" ? `was cut off at ${maxOut} output tokens` : `stopped abnormally (${res.stop})`;
    throw new CompactionError("summary_request", `the model's summary ${why}`);
  }
  const text = contentText(res.message.content);
  if (text.trim() === "") throw new CompactionError("summary_request", "the model returned an empty summary");
  return text;
}
