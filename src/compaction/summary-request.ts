// The model-assisted route: the core asks the model for the summary itself (the compactor never sees the
// API key). Every request carries no tools, is budget-checked before any HTTP, and must end without tool
// calls. Nothing the summariser is shown is cut to make it fit:
//   - material larger than one request is summarised in chunks, oldest first, each chunk's summary
//     carried whole into the next request (summary-chunks.ts);
//   - a reply stopped by the output limit is continued (bounded), not dropped;
//   - a summary over its budget has its oldest part condensed (once per compaction), never truncated.
import type { BudgetModel, BudgetPolicy } from "../contract/compaction.ts";
import { errorMessage } from "../contract/errors.ts";
import { PROMPTS } from "../contract/generated/prompts.ts";
import type { History, ImagePart, Message } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { textTokens } from "../lib/estimator.ts";
import { type Provider, ProviderError, type StreamEvent } from "../provider/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { type BudgetReading, effectiveTotal, readBudget } from "./budget-call.ts";
import { CompactionError } from "./errors.ts";
import { planChunks } from "./summary-chunks.ts";
import {
  condenseBudget,
  condenseRequest,
  joinCondensed,
  splitForCondensing,
  summaryTokens,
} from "./summary-condense.ts";
import { joinBlocks, renderBlocks, wrapSummary, wrapTranscript } from "./transcript.ts";

/** Continuations asked for when one summary reply is stopped by the output limit. */
export const MAX_SUMMARY_CONTINUATIONS = 2;

export interface SummaryRequestInput {
  hooks: HookRunner;
  provider: Provider;
  model: BudgetModel;
  policy: BudgetPolicy;
  /** the most tokens the summary may have (summary-cap.ts); past its budget, a share of it, it is condensed */
  cap: number;
  prompt: string;
  messages: Message[];
  summaryImages: ImagePart[];
  onEvent?: (ev: StreamEvent) => void;
  /** what happened beyond one plain request (chunks, continuations, condensing), for the user */
  onNote?: (message: string) => void;
  /** the running turn's: a cancel stops the summary request in flight */
  signal?: AbortSignal;
}

export interface SummaryOutcome {
  summary: string;
  /** model requests made for this summary (chunks, continuations and condensing included) */
  requests: number;
  chunks: number;
}

export function buildSummaryRequest(
  prompt: string,
  messages: readonly Message[],
  images: ImagePart[],
): History {
  return summaryRequestOf(prompt, joinBlocks(renderBlocks(messages)), images);
}

export function summaryRequestOf(prompt: string, transcript: string, images: readonly ImagePart[]): History {
  const wrapped = wrapTranscript(transcript);
  return [
    { role: "system", content: prompt },
    { role: "user", content: images.length > 0 ? [{ type: "text", text: wrapped }, ...images] : wrapped },
  ];
}

/** How a chunk's summary is shown to the request for the next chunk: as a summary message is rendered. */
export function carriedSummaryBlock(summary: string): string {
  return `[user]\n${wrapSummary(summary)}`;
}

/** Room for the summary in each request: the cap, or the model's output limit when that is smaller. */
export function summaryOutputTokens(model: BudgetModel, cap: number): number {
  return Math.min(cap, model.max_output_tokens ?? Number.POSITIVE_INFINITY);
}

/** The budget reading of a summary request, with room reserved for the summary instead of the usual reserve. */
export function checkSummaryBudget(input: SummaryRequestInput, request: History): Promise<BudgetReading> {
  return readBudget(input.hooks, input.model, input.policy, {
    history: request,
    tools: [],
    armed: true,
    policy: { ...input.policy, reserve_tokens: summaryOutputTokens(input.model, input.cap) },
  });
}

function overBudget(input: SummaryRequestInput, reading: BudgetReading, what: string): CompactionError {
  const maxOut = summaryOutputTokens(input.model, input.cap);
  return new CompactionError(
    "summary_request",
    `${what} needs about ${effectiveTotal(reading.budget)} tokens, over the ${reading.budget.hard_limit}-token limit of model ${input.model.name} (${maxOut} kept for the summary); nothing was sent. Compact more often (lower trigger_ratio in budget.json) or keep fewer recent messages`,
  );
}

export async function requestSummary(input: SummaryRequestInput): Promise<SummaryOutcome> {
  const blocks = renderBlocks(input.messages);
  const counter: Counter = { requests: 0 };
  const measure = async (b: readonly string[]) => {
    const request = summaryRequestOf(input.prompt, joinBlocks(b), input.summaryImages);
    const reading = await checkSummaryBudget(input, request);
    counter.checked = { request, reading };
    return reading.budget;
  };
  const carriedRoom = input.cap + Math.ceil(textTokens(carriedSummaryBlock("")));
  const chunks = await planChunks(blocks, measure, carriedRoom);
  if (chunks.length > 1) {
    input.onNote?.(
      `the material to summarise is larger than one summary request holds: summarising it in ${chunks.length} chunks, oldest first`,
    );
  }
  let carried: string | undefined;
  for (let k = 0; k < chunks.length; k++) {
    const body = carried === undefined ? chunks[k] : [carriedSummaryBlock(carried), ...(chunks[k] ?? [])];
    // Images belong to the most recent material: they go with the last chunk.
    const images = k === chunks.length - 1 ? input.summaryImages : [];
    // One chunk is exactly the request planChunks measured: its reading stands (one budget round trip).
    const request =
      chunks.length === 1 && counter.checked
        ? counter.checked.request
        : summaryRequestOf(input.prompt, joinBlocks(body ?? []), images);
    const what = chunks.length > 1 ? `summary request ${k + 1} of ${chunks.length}` : "the summary request";
    carried = await summaryWithinCap(input, request, what, counter);
  }
  return { summary: carried as string, requests: counter.requests, chunks: chunks.length };
}

/** Requests made so far, and the last budget reading taken of a request before it was sent. */
interface Counter {
  requests: number;
  checked?: { request: History; reading: BudgetReading };
  /** whether this compaction has condensed a summary (it may once) */
  condensed?: boolean;
}

/**
 * One summary, continued when cut off; over its budget, its oldest part is condensed (summary-condense.ts),
 * at most once per compaction. Whatever happens, a summary over the cap fails the compaction.
 */
async function summaryWithinCap(
  input: SummaryRequestInput,
  request: History,
  what: string,
  counter: Counter,
): Promise<string> {
  const text = await askContinued(input, request, what, counter);
  const cap = input.cap;
  const tokens = summaryTokens(text);
  if (tokens <= condenseBudget(cap)) return text;
  if (counter.condensed) {
    if (tokens <= cap) return text;
    throw new CompactionError(
      "summary_request",
      `the summary is about ${tokens} tokens, over the cap of ${cap}, and this compaction already condensed one once; nothing was cut or committed`,
    );
  }
  counter.condensed = true;
  const split = splitForCondensing(text, cap);
  const kept = split.newest === "" ? "" : `, keeping its newest ${summaryTokens(split.newest)} as written`;
  input.onNote?.(
    `the summary is about ${tokens} tokens, over its budget of ${condenseBudget(cap)} (cap ${cap}): asking the model to condense its oldest ${summaryTokens(split.oldest)} tokens into about ${split.target}${kept}`,
  );
  const condensed = await askContinued(
    input,
    condenseRequest(split, wrapTranscript),
    "the request to condense the summary",
    counter,
  );
  const joined = joinCondensed(condensed, split);
  const after = summaryTokens(joined);
  if (after > cap) {
    throw new CompactionError(
      "summary_request",
      `the summary is still about ${after} tokens after its oldest part was condensed, over the cap of ${cap}; nothing was cut or committed`,
    );
  }
  return joined;
}

/** Ask, and while the reply is stopped by the output limit, ask it to continue (bounded). */
async function askContinued(
  input: SummaryRequestInput,
  request: History,
  what: string,
  counter: Counter,
): Promise<string> {
  const parts: string[] = [];
  let messages = request;
  for (let continuation = 0; ; continuation++) {
    const reply = await askOnce(input, messages, what, counter);
    parts.push(reply.text);
    if (reply.stop === "end") break;
    if (continuation >= MAX_SUMMARY_CONTINUATIONS) {
      throw new CompactionError(
        "summary_request",
        `the model's summary was still cut off at ${summaryOutputTokens(input.model, input.cap)} output tokens after ${MAX_SUMMARY_CONTINUATIONS} continuations`,
      );
    }
    input.onNote?.(
      `the summary reached the output limit: asking the model to continue it (${continuation + 1}/${MAX_SUMMARY_CONTINUATIONS})`,
    );
    messages = [
      ...messages,
      { role: "assistant", content: reply.text },
      { role: "user", content: PROMPTS["continue-summary"] },
    ];
  }
  const text = parts.join("");
  if (text.trim() === "") throw new CompactionError("summary_request", "the model returned an empty summary");
  return text;
}

async function askOnce(
  input: SummaryRequestInput,
  request: History,
  what: string,
  counter: Counter,
): Promise<{ text: string; stop: "end" | "length" }> {
  const maxOut = summaryOutputTokens(input.model, input.cap);
  const check =
    counter.checked?.request === request ? counter.checked.reading : await checkSummaryBudget(input, request);
  if (check.budget.recommendation === "over") throw overBudget(input, check, what);
  let res: Awaited<ReturnType<Provider["stream"]>>;
  counter.requests++;
  try {
    res = await input.provider.stream(
      {
        model: input.model.name,
        messages: request,
        tools: [],
        max_output_tokens: maxOut,
        ...(input.signal ? { signal: input.signal } : {}),
      },
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
  if (res.stop !== "end" && res.stop !== "length") {
    throw new CompactionError("summary_request", `the model's summary stopped abnormally (${res.stop})`);
  }
  return { text: contentText(res.message.content), stop: res.stop };
}
