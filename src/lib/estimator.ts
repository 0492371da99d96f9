// The built-in token estimator: a linear character heuristic, no tokenizer. It is deliberately simple and
// fast (one native UTF-8 length count per string in the common ASCII case) because it runs before every
// model request over the whole history. Real usage from the provider calibrates it (see calibrate()).
//
// Weights: English text and code average about 4 characters per token; scripts outside ASCII tokenize far
// denser (2-byte scripts such as Cyrillic about 2 characters per token, CJK about 1), so counting them at
// a quarter token would under-estimate by 4x exactly where users least expect it.

import { Buffer } from "node:buffer";

/** Changing any weight below changes estimates: bump the version so old and new are never compared. */
export const ESTIMATOR = { id: "i-chars", version: 1 } as const;

const ASCII_PER_TOKEN = 4;
/** framing tokens per message (role, separators) */
export const MESSAGE_OVERHEAD = 4;
/** framing tokens per tool call and per tool declaration */
export const TOOL_CALL_OVERHEAD = 8;
export const TOOL_DECL_OVERHEAD = 8;

const NON_ASCII = /[\u0080-\uffff]/;

/** Estimated tokens of a text (fractional; callers round once per component). */
export function textTokens(s: string): number {
  // Pure ASCII exactly when its UTF-8 is one byte per UTF-16 unit (anything else takes more): a
  // vectorised count, some 30x faster on megabytes of tool output than the regex search below.
  if (Buffer.byteLength(s, "utf8") === s.length) return s.length / ASCII_PER_TOKEN;
  const first = s.search(NON_ASCII);
  if (first < 0) return s.length / ASCII_PER_TOKEN;
  let tokens = first / ASCII_PER_TOKEN;
  for (let i = first; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair (emoji, rare CJK) counts 0.5 + 0.5 = one token.
    tokens += c < 0x80 ? 0.25 : c < 0x800 ? 0.5 : c >= 0xd800 && c <= 0xdfff ? 0.5 : 1;
  }
  return tokens;
}

export interface MessageTally {
  text: number;
  images: number;
}

/** Adds one message's text tokens and image-part count to `t`. Unknown shapes count as their JSON. */
export function tallyMessage(m: unknown, t: MessageTally): void {
  if (!m || typeof m !== "object") return;
  const msg = m as {
    content?: unknown;
    tool_calls?: unknown;
    tool_call_id?: unknown;
    adapter?: unknown;
  };
  t.text += MESSAGE_OVERHEAD;
  const c = msg.content;
  if (typeof c === "string") t.text += textTokens(c);
  else if (Array.isArray(c)) {
    for (const p of c) {
      const part = p as { type?: unknown; text?: unknown };
      if (part?.type === "text" && typeof part.text === "string") t.text += textTokens(part.text);
      // Image bytes are never text: base64 would inflate the estimate tenfold.
      else if (part?.type === "image") t.images++;
      else if (p !== undefined) t.text += textTokens(JSON.stringify(p) ?? "");
    }
  }
  if (Array.isArray(msg.tool_calls)) {
    for (const call of msg.tool_calls) {
      const tc = call as { name?: unknown; arguments?: unknown; id?: unknown };
      t.text += TOOL_CALL_OVERHEAD;
      if (typeof tc?.name === "string") t.text += textTokens(tc.name);
      if (typeof tc?.arguments === "string") t.text += textTokens(tc.arguments);
    }
  }
  if (typeof msg.tool_call_id === "string") t.text += msg.tool_call_id.length / ASCII_PER_TOKEN;
  // Private wire state (e.g. encrypted reasoning) goes back to the provider, so it costs context too.
  if (msg.adapter !== undefined) t.text += textTokens(JSON.stringify(msg.adapter) ?? "");
}

/** A declaration's tokens, counted once per object: the same (frozen) declarations come every request. */
const declTokens = new WeakMap<object, number>();

export function toolsTokens(tools: readonly unknown[]): number {
  let n = 0;
  for (const t of tools) {
    const frozen = typeof t === "object" && t !== null && Object.isFrozen(t);
    let k = frozen ? declTokens.get(t) : undefined;
    if (k === undefined) {
      k = TOOL_DECL_OVERHEAD + textTokens(JSON.stringify(t) ?? "");
      if (frozen) declTokens.set(t, k);
    }
    n += k;
  }
  return n;
}

export interface RawEstimate {
  system: number;
  tools: number;
  messages: number;
  images: number;
  /** image parts seen in the history */
  image_parts: number;
  total: number;
  /** the estimate of system + tools + history[0..covered) when `covered` was given */
  prefix?: number;
}

/**
 * Raw estimate of a request: the system prompt, the tool declarations and history[1..] (history[0] is the
 * system message; `system`, when given, is what is actually sent in its place). `imageTokens` undefined
 * means unknown: images then add nothing and the caller must say so.
 */
/** The text the system message contributes: its string content, or its text parts joined by newlines. */
export function systemText(first: unknown): string {
  const content = (first as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p as { text?: string }).text ?? "").join("\n");
  return "";
}

export function estimateRequest(
  history: readonly unknown[],
  system: string | undefined,
  tools: readonly unknown[],
  imageTokens: number | undefined,
  covered?: number,
): RawEstimate {
  const systemTokens = Math.ceil(MESSAGE_OVERHEAD + textTokens(system ?? systemText(history[0])));
  const t: MessageTally = { text: 0, images: 0 };
  let prefix: MessageTally = t;
  for (let i = 1; i < history.length; i++) {
    if (i === covered) prefix = { ...t };
    tallyMessage(history[i], t);
  }
  return finish(systemTokens, Math.ceil(toolsTokens(tools)), t, prefix, imageTokens, covered);
}

/**
 * The same estimate from per-message tallies (a history summary's `tokens` and `images`, index for index
 * with the history): figures identical to estimateRequest's. Tallies are multiples of a quarter token, so
 * summing them per message or all at once gives exactly the same number. Without `system`, the system
 * message's own tally stands for it (the same figure for a string system message; the core always sends
 * `system`).
 */
export function estimateFromTallies(
  tallies: { tokens: readonly number[]; images: readonly number[] },
  system: string | undefined,
  tools: readonly unknown[],
  imageTokens: number | undefined,
  covered?: number,
): RawEstimate {
  const systemTokens = Math.ceil(
    system === undefined ? (tallies.tokens[0] ?? MESSAGE_OVERHEAD) : MESSAGE_OVERHEAD + textTokens(system),
  );
  const t: MessageTally = { text: 0, images: 0 };
  let prefix: MessageTally = t;
  for (let i = 1; i < tallies.tokens.length; i++) {
    if (i === covered) prefix = { ...t };
    t.text += tallies.tokens[i] as number;
    t.images += tallies.images[i] ?? 0;
  }
  return finish(systemTokens, Math.ceil(toolsTokens(tools)), t, prefix, imageTokens, covered);
}

/** `prefix` is the tally of history[1..covered), or `t` itself when covered reaches the end. */
function finish(
  systemTokens: number,
  toolTokens: number,
  t: MessageTally,
  prefix: MessageTally,
  imageTokens: number | undefined,
  covered: number | undefined,
): RawEstimate {
  const perImage = imageTokens ?? 0;
  const messages = Math.ceil(t.text);
  const images = t.images * perImage;
  const est: RawEstimate = {
    system: systemTokens,
    tools: toolTokens,
    messages,
    images,
    image_parts: t.images,
    total: systemTokens + toolTokens + messages + images,
  };
  if (covered !== undefined) {
    // covered ≤ 1 never reached a message: the prefix is system + tools alone.
    const p = covered <= 1 ? { text: 0, images: 0 } : prefix;
    est.prefix = systemTokens + toolTokens + Math.ceil(p.text) + p.images * perImage;
  }
  return est;
}

/** Observed/estimated ratios outside this band mean the usage figure is not about this content. */
export const CALIBRATION_MIN = 0.25;
export const CALIBRATION_MAX = 4;

/**
 * Calibrated total: the covered prefix counts as what the provider really charged, and the rest is scaled
 * by the same observed ratio (the tokenizer's behaviour on this session's content). Returns undefined
 * when the sample cannot be trusted (empty prefix, zero tokens, ratio far outside the plausible band).
 */
export function calibrate(
  est: RawEstimate,
  inputTokens: number,
): { total: number; factor: number } | undefined {
  const prefix = est.prefix;
  if (prefix === undefined || prefix <= 0 || inputTokens <= 0) return undefined;
  const factor = inputTokens / prefix;
  if (factor < CALIBRATION_MIN || factor > CALIBRATION_MAX) return undefined;
  const rest = est.total - prefix;
  return { total: inputTokens + Math.ceil(rest * factor), factor };
}
