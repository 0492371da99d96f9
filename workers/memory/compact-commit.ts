// `before_compact_commit`: notes added during a session live in tool results that compaction summarises
// away, so the notes are appended to the summary message (candidate[1]) as one more text part. Nothing
// else in the candidate changes, so it stays a valid history.
// What the notes add is taken from `restore_room` (the estimator tokens the candidate may still grow by,
// sent by the core and passed on by the modules before this one) and what is left is passed on: when the
// whole block does not fit, fewer notes are shown (the oldest win, the rest counted); when not even the
// heading and one line fit, nothing is added. The notes stay in the system prompt and on disk either way.
import { z } from "zod";
import { Message } from "../../src/contract/history.ts";
import { tallyMessage } from "../../src/lib/estimator.ts";
import type { Data } from "../sdk/module.ts";
import { MAX_RENDERED_CHARS, NOTES_HEADING } from "./render.ts";

const CommitData = z.looseObject({ candidate: z.array(z.unknown()).min(2) });

/** Below this many characters the block holds no more than its heading: it is left out instead. */
export const MIN_NOTES_CHARS = 400;

type Render = (maxChars: number) => string;

/** Estimator tokens of a message of the candidate, as the budget counts it. */
function messageTokens(m: Message): number {
  const t = { text: 0, images: 0 };
  tallyMessage(m, t);
  return t.text;
}

function withNotes(msg: Message, block: string): Message {
  const parts =
    typeof msg.content === "string" ? [{ type: "text" as const, text: msg.content }] : [...msg.content];
  parts.push({ type: "text", text: block });
  return { ...msg, content: parts };
}

function lastText(parts: readonly unknown[]): string {
  const p = parts.at(-1) as { type?: unknown; text?: unknown } | undefined;
  return p?.type === "text" && typeof p.text === "string" ? p.text : "";
}

/** The room in the data; no bound from a core that sends none. */
function roomOf(data: Data): number {
  const r = (data as { restore_room?: unknown }).restore_room;
  return typeof r === "number" && Number.isFinite(r) && r >= 0 ? Math.floor(r) : Number.POSITIVE_INFINITY;
}

export function keepNotesInCandidate<D extends Data>(data: D, render: Render): D {
  if (render(MAX_RENDERED_CHARS) === "") return data;
  const parsed = CommitData.safeParse(data);
  if (!parsed.success)
    throw new Error("memory: before_compact_commit data.candidate must be a history array");
  const candidate = parsed.data.candidate;
  const summary = Message.safeParse(candidate[1]);
  if (!summary.success || summary.data.role !== "user") {
    throw new Error("memory: before_compact_commit candidate[1] must be the user summary message");
  }
  const msg = summary.data;
  // Already there (a second run, a re-sent candidate): the last part is a notes block.
  if (typeof msg.content !== "string" && lastText(msg.content).startsWith(NOTES_HEADING)) return data;
  const room = roomOf(data);
  const before = messageTokens(msg);
  let maxChars = MAX_RENDERED_CHARS;
  // Shrink the bound in proportion to the overshoot until the block fits (a few steps at most).
  while (maxChars >= MIN_NOTES_CHARS) {
    const next = withNotes(msg, render(maxChars));
    const cost = Math.ceil(messageTokens(next) - before);
    if (cost <= room) {
      const out = [...candidate];
      out[1] = next;
      return {
        ...data,
        candidate: out,
        ...(Number.isFinite(room) ? { restore_room: room - cost } : {}),
      };
    }
    maxChars = Math.min(maxChars - 1, Math.floor((maxChars * room) / cost));
  }
  return data;
}
