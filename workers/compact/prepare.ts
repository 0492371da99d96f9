// `before_compact` transcript preparation: tool outputs and tool call arguments are cut mechanically to
// head and tail, private adapter state and core bookkeeping are dropped, and image bytes leave the
// transcript according to the images policy, so the summary request carries only what a summariser can use.
// What the user and the assistant said — and the previous summary, which is one such message — is passed
// whole: it is the part of a session nothing else can reproduce (a tool can be run again, a file read
// again), and cutting the previous summary's middle at every compaction is how long sessions used to
// forget. When the whole does not fit one summary request, the core summarises it in chunks.
import type { ImagesPolicy } from "../../src/contract/config.ts";
import type { Content, ImagePart, Message, Part } from "../../src/contract/history.ts";
import { formatBytes, truncateMiddle } from "../../src/lib/truncate.ts";
import { pathArgument } from "./snapshots.ts";

/** Tool output kept for the summary (head and tail), in UTF-8 bytes. */
export const TOOL_OUTPUT_MAX_BYTES = 2000;
/** Tool call arguments (e.g. a whole file passed to write) kept for the summary. */
export const TOOL_ARGS_MAX_BYTES = 2000;
/** Images shown to the summary model, and images carried into the compacted history. */
export const MAX_SUMMARY_IMAGES = 4;
export const MAX_SUMMARY_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_RETAINED_IMAGES = 2;
export const MAX_RETAINED_IMAGE_BYTES = 4 * 1024 * 1024;

const ADVICE = "shortened; the whole output stays in the session's events.jsonl";

/** Added to the summary prompt when images are to be described. */
export const DESCRIBE_IMAGES_PROMPT = `## Images
The images attached to this request are marked in the transcript by number ("image #N"). They will not be
kept after this summary, so describe each one under "## Images" in the summary: what it shows, any text,
numbers or errors visible in it, and what it was used for, labelled by its number.`;

/** Whether `messages` hold any image part. */
export function hasImages(messages: readonly Message[]): boolean {
  return messages.some((m) => typeof m.content !== "string" && m.content.some((p) => p.type === "image"));
}

export interface PreparedTranscript {
  messages: Message[];
  summary_images: ImagePart[];
  retained_images: ImagePart[];
}

interface ImageRef {
  part: ImagePart;
  label: string;
}

/** A tool output as the summariser is shown it, and as the prune stage leaves it in the history. */
export function shortenToolOutput(text: string): string {
  return clip(text, TOOL_OUTPUT_MAX_BYTES);
}

function clip(text: string, max: number): string {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: short strings cannot exceed `max`.
  return text.length * 3 <= max ? text : truncateMiddle(text, max, ADVICE);
}

export function imageBytes(p: ImagePart): number {
  return Math.floor((p.data.length * 3) / 4);
}

/** "read(src/logo.png)" for each tool call id: names where a tool-result image came from. */
function callLabels(messages: readonly Message[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) labels.set(c.id, `${c.name}(${pathArgument(c) ?? ""})`);
  }
  return labels;
}

/** The most recent images (last first in the scan) that fit both bounds, as a set. */
function pickRecent(refs: readonly ImageRef[], count: number, bytes: number): Set<ImagePart> {
  const chosen = new Set<ImagePart>();
  let used = 0;
  for (let i = refs.length - 1; i >= 0 && chosen.size < count; i--) {
    const part = (refs[i] as ImageRef).part;
    const size = imageBytes(part);
    if (used + size > bytes) continue;
    chosen.add(part);
    used += size;
  }
  return chosen;
}

function joinParts(parts: Part[]): Content {
  if (parts.every((p) => p.type === "text")) return parts.map((p) => (p as { text: string }).text).join("\n");
  return parts;
}

export function prepareTranscript(messages: readonly Message[], images: ImagesPolicy): PreparedTranscript {
  const labels = callLabels(messages);
  const refs: ImageRef[] = [];
  messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    const from =
      m.role === "tool"
        ? `the result of ${labels.get(m.tool_call_id ?? "") ?? "a tool call"}`
        : `${m.role} message ${i + 1}`;
    for (const p of m.content) if (p.type === "image") refs.push({ part: p, label: from });
  });
  // keep: the summariser sees the recent images and they stay in context; describe: the summariser sees
  // them and writes what they show into the summary instead; omit: only a marker remains.
  const toSummary =
    images === "omit" ? new Set() : pickRecent(refs, MAX_SUMMARY_IMAGES, MAX_SUMMARY_IMAGE_BYTES);
  const toRetain =
    images === "keep" ? pickRecent(refs, MAX_RETAINED_IMAGES, MAX_RETAINED_IMAGE_BYTES) : new Set();
  const number = new Map(refs.map((r, k) => [r.part, { n: k + 1, label: r.label }]));

  const marker = (p: ImagePart): string => {
    const info = number.get(p);
    const what = `image #${info?.n} (${p.media_type}, ${formatBytes(imageBytes(p))}) from ${info?.label}`;
    if (images === "omit") return `[${what}: omitted]`;
    if (images === "describe" && toSummary.has(p))
      return `[${what}: attached to this request; describe it in the summary]`;
    if (toSummary.has(p)) return `[${what}: attached to this request]`;
    return `[${what}: not attached; only the ${MAX_SUMMARY_IMAGES} most recent images are kept]`;
  };

  const out: Message[] = messages.map((m) => {
    const max = m.role === "tool" ? TOOL_OUTPUT_MAX_BYTES : Number.POSITIVE_INFINITY;
    const content: Content =
      typeof m.content === "string"
        ? clip(m.content, max)
        : joinParts(
            m.content.map(
              (p): Part =>
                p.type === "text"
                  ? { type: "text", text: clip(p.text, max) }
                  : { type: "text", text: marker(p) },
            ),
          );
    // Only what a summariser can read: no adapter (private wire state), no meta (core bookkeeping).
    const prepared: Message = { role: m.role, content };
    if (m.tool_calls) {
      prepared.tool_calls = m.tool_calls.map((c) => ({
        ...c,
        arguments: clip(c.arguments, TOOL_ARGS_MAX_BYTES),
      }));
    }
    if (m.tool_call_id !== undefined) prepared.tool_call_id = m.tool_call_id;
    return prepared;
  });

  return {
    messages: out,
    summary_images: refs.filter((r) => toSummary.has(r.part)).map((r) => r.part),
    retained_images: refs.filter((r) => toRetain.has(r.part)).map((r) => r.part),
  };
}
