// The task survives compaction. The summary message is untrusted notes ("not instructions"), so a
// session whose user request lies in the compacted part — a long tool loop compacted mid-turn — would
// otherwise carry the user's task only as notes. Rule: after every compaction the user's latest request
// and, within a bound, their earlier messages (the session's first request first among them: it usually
// states the task and the standing instructions) reach the model again as user messages in the user's own
// words, placed between the summary and the recent suffix, oldest first. Messages still visible in the
// suffix are not repeated. The texts are collected in `before_compact` (which holds the compacted span)
// and carried to `before_compact_commit` in the opaque state; restored messages of an earlier compaction
// are collected again the next time, so the first request survives any number of compactions.
import { z } from "zod";
import type { Content, Message } from "../../src/contract/history.ts";
import { Room } from "./room.ts";

/** Total UTF-8 bytes of restored user text beyond the latest request. */
export const RESTORE_MAX_BYTES = 8 * 1024;
/** The latest request is restored whole up to this size (a larger paste lives on in the summary). */
export const RESTORE_LATEST_MAX_BYTES = 32 * 1024;
export const RESTORED_LABEL = "[Restored after compaction: an earlier message of the user, quoted exactly]";

/** The user texts carried in the state (`state.user_messages`), oldest first. */
export const UserMessages = z.array(z.string());
export type UserMessages = z.infer<typeof UserMessages>;

function textOf(content: Content): string {
  if (typeof content === "string") return content;
  return content
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");
}

/** What the user wrote in `m`, or undefined when `m` is not the user's own words. */
export function userWords(m: Message): string | undefined {
  if (m.role !== "user") return undefined;
  const meta = m.meta ?? {};
  // A summary, a continuation prompt and a note of an approval-mode change are not the user's words.
  if (meta.summary === true || meta.continuation === true || meta.approval_mode !== undefined)
    return undefined;
  if (meta.restored === true && Array.isArray(m.content)) {
    // [label, the user's text]: the label is ours, the rest is theirs.
    return textOf(m.content.slice(1));
  }
  const text = textOf(m.content);
  return text.trim() === "" ? undefined : text;
}

const bytes = (s: string) => Buffer.byteLength(s);

/** The user texts of `messages` to restore after compaction, oldest first, within the bounds. */
export function collectUserMessages(messages: readonly Message[]): UserMessages {
  const all: string[] = [];
  for (const m of messages) {
    const text = userWords(m);
    if (text !== undefined && all.at(-1) !== text) all.push(text);
  }
  if (all.length === 0) return [];
  const chosen = new Set<number>();
  const latest = all.length - 1;
  if (bytes(all[latest] as string) <= RESTORE_LATEST_MAX_BYTES) chosen.add(latest);
  let room = RESTORE_MAX_BYTES;
  // The first request, then the rest newest first, while they fit.
  for (const i of [0, ...Array.from({ length: latest }, (_, k) => latest - 1 - k)]) {
    if (chosen.has(i)) continue;
    const size = bytes(all[i] as string);
    if (size > room) continue;
    chosen.add(i);
    room -= size;
  }
  return all.filter((_, i) => chosen.has(i));
}

export function restoredMessage(text: string): Message {
  return {
    role: "user",
    content: [
      { type: "text", text: RESTORED_LABEL },
      { type: "text", text },
    ],
    meta: { restored: true },
  };
}

/**
 * The candidate with the carried user messages between the summary (candidate[1]) and the suffix, as many
 * as `room` affords: the latest request first (the task), then the first, then the rest newest first.
 */
export function restoreUserMessages(
  candidate: Message[],
  carried: UserMessages,
  room: Room = Room.unbounded(),
): Message[] {
  if (carried.length === 0 || candidate[1]?.meta?.summary !== true) return candidate;
  const visible = new Set(
    candidate
      .slice(2)
      .map(userWords)
      .filter((t) => t !== undefined),
  );
  const wanted = carried.filter((t) => !visible.has(t)).map(restoredMessage);
  const last = wanted.length - 1;
  const order = [last, 0, ...Array.from({ length: Math.max(0, last - 1) }, (_, k) => last - 1 - k)];
  const chosen = new Set(order.filter((i) => i >= 0));
  const fits = new Set([...chosen].filter((i) => room.take(Room.messageTokens(wanted[i] as Message))));
  const restore = wanted.filter((_, i) => fits.has(i));
  if (restore.length === 0) return candidate;
  return [candidate[0] as Message, candidate[1] as Message, ...restore, ...candidate.slice(2)];
}
