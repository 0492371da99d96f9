// The one cap stage every tool result passes before it enters the history. Two bounds, in order:
// - by where the result comes from: a core tool caps its own output well below MAX_RESULT_BYTES (this is
//   the last line of defence); a module's or a run-time declared tool's output is untrusted and
//   unbounded, so its text is capped in total and an image larger than `read` would return is named in
//   its place, and so is a damaged one (providers refuse such images, and one in the history would fail
//   every later request);
// - by the model's window: one result never crowds out the context (a share of the window, measured with
//   the compaction estimator). Otherwise a single 70 KB read on a 12k-token model makes every later
//   request too large, and compaction cannot help: the oversized result sits in the current turn, which
//   it must keep.
import type { Content, Part } from "../contract/history.ts";
import { textTokens } from "../lib/estimator.ts";
import { checkImage } from "../lib/image-info.ts";
import { capText, formatBytes, truncateMiddle } from "../lib/truncate.ts";
import { READ_MAX_IMAGE_BYTES } from "./read.ts";
import type { ToolResult } from "./types.ts";

/** No core tool's text result, whatever the tool, grows past this. */
export const MAX_RESULT_BYTES = 320 * 1024;
/** The text of an untrusted tool's result (module or run-time declared), in total. */
export const MODULE_OUTPUT_MAX_CHARS = 50_000;

/** Where a result comes from, which decides its first bound. */
export type OutputBound = "core" | "untrusted";

function capCoreOutput(content: Content): Content {
  const advice = "the result was too large for the conversation; ask for less at a time";
  if (typeof content === "string") return truncateMiddle(content, MAX_RESULT_BYTES, advice);
  return content.map((p) =>
    p.type === "text" ? { ...p, text: truncateMiddle(p.text, MAX_RESULT_BYTES, advice) } : p,
  );
}

function boundUntrustedOutput(content: Content): Content {
  if (typeof content === "string") return capText(content, MODULE_OUTPUT_MAX_CHARS);
  const textParts = content.filter((p) => p.type === "text").length;
  const perPart = Math.floor(MODULE_OUTPUT_MAX_CHARS / Math.max(1, textParts));
  return content.map((p): Part => {
    if (p.type === "text") return { type: "text", text: capText(p.text, perPart) };
    const bytes = Math.floor((p.data.length * 3) / 4);
    if (bytes <= READ_MAX_IMAGE_BYTES) {
      // A damaged image (a module's, a replaced MCP module's) would be refused with every later request.
      const checked = checkImage(Buffer.from(p.data, "base64"));
      if (typeof checked !== "string") return p;
      return { type: "text", text: `[image ${p.media_type} left out: ${checked}]` };
    }
    return {
      type: "text",
      text: `[image ${p.media_type} of ${formatBytes(bytes)} left out: over the ${formatBytes(READ_MAX_IMAGE_BYTES)} image limit]`,
    };
  });
}

function shortenText(text: string, capTokens: number): string {
  const tokens = textTokens(text);
  if (tokens <= capTokens) return text;
  // Proportional, with room for the notes; the estimator counts per character, so this lands under.
  const keep = Math.max(200, Math.floor((text.length * capTokens) / tokens) - 400);
  return `${capText(text, keep)}\n[output shortened to fit the model's context window (${Math.round(tokens)} estimated tokens, at most ${capTokens} per tool result): read smaller ranges (offset/limit), grep for what you need, or redirect the output to a file]`;
}

/** `content` with its text held to `capTokens` in total (shared among text parts); images untouched. */
export function capResultContent(content: Content, capTokens: number): Content {
  if (typeof content === "string") return shortenText(content, capTokens);
  const texts = content.filter((p) => p.type === "text").length;
  const per = Math.floor(capTokens / Math.max(1, texts));
  let changed = false;
  const out = content.map((p): Part => {
    if (p.type !== "text") return p;
    const text = shortenText(p.text, per);
    if (text !== p.text) changed = true;
    return text === p.text ? p : { type: "text", text };
  });
  return changed ? out : content;
}

/** `result` bounded by its origin, then (with `tokenCap`) by the model's window. */
export function capToolOutput(result: ToolResult, bound: OutputBound, tokenCap?: number): ToolResult {
  let content = bound === "core" ? capCoreOutput(result.content) : boundUntrustedOutput(result.content);
  if (tokenCap !== undefined) content = capResultContent(content, tokenCap);
  return { ...result, content };
}
