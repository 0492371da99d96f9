// `before_compact_commit`: notes added during a session live in tool results that compaction summarises
// away, so the notes are appended to the summary message (candidate[1]) as one more text part. Nothing
// else in the candidate changes, so it stays a valid history.
import { z } from "zod";
import { contentText, Message } from "../../src/contract/history.ts";
import type { Data } from "../sdk/module.ts";

const CommitData = z.looseObject({ candidate: z.array(z.unknown()).min(2) });

export function keepNotesInCandidate<D extends Data>(data: D, notesBlock: string): D {
  if (notesBlock === "") return data;
  const parsed = CommitData.safeParse(data);
  if (!parsed.success)
    throw new Error("memory: before_compact_commit data.candidate must be a history array");
  const candidate = parsed.data.candidate;
  const summary = Message.safeParse(candidate[1]);
  if (!summary.success || summary.data.role !== "user") {
    throw new Error("memory: before_compact_commit candidate[1] must be the user summary message");
  }
  const msg = summary.data;
  if (contentText(msg.content).includes(notesBlock)) return data;
  const parts =
    typeof msg.content === "string" ? [{ type: "text" as const, text: msg.content }] : [...msg.content];
  parts.push({ type: "text", text: notesBlock });
  const next = [...candidate];
  next[1] = { ...msg, content: parts };
  return { ...data, candidate: next };
}
