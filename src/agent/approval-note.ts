// The approval mode the model works under. The system prompt states the mode the session started with;
// a change during the session (Shift+Tab, /approve) reaches the model as a short note added before the
// next request — never by rewriting the system prompt, whose cached prefix stays as it was. The note is a
// message of the history (saved, replayed as a notice, summarised like the rest); the mode the model was
// told last is read back from it, so a resume, a compaction that dropped the note, or a resume under
// another --approve is told again.
import type { History, Message } from "../contract/history.ts";
import type { ApprovalPolicy } from "../tools/types.ts";
import { APPROVAL_LINES } from "./prompt-environment.ts";

/** The meta key of the note (and of the system prompt: the mode it states). */
export const APPROVAL_MODE_KEY = "approval_mode";

const MODES: ReadonlySet<string> = new Set(["all", "edits", "ask", "none"]);

function modeOf(m: Message): ApprovalPolicy | undefined {
  const v = m.meta?.[APPROVAL_MODE_KEY];
  return typeof v === "string" && MODES.has(v) ? (v as ApprovalPolicy) : undefined;
}

/**
 * The mode the model was last told: the latest note's, else the one the system prompt states; undefined
 * for a session saved before either was recorded.
 */
export function toldApprovalMode(h: Readonly<History>): ApprovalPolicy | undefined {
  for (let i = h.length - 1; i >= 0; i--) {
    const mode = modeOf(h[i] as Message);
    if (mode) return mode;
  }
  return undefined;
}

/**
 * `toldApprovalMode` asked before every request of one history array, which between two requests only
 * grows: the messages already read are not read again (a whole-history scan per request grew with the
 * session). A different array (compaction, undo) or a changed prefix is read whole.
 */
export class ToldModeReader {
  private seen: { h: Readonly<History>; length: number; last: Message | undefined } | undefined;
  private mode: ApprovalPolicy | undefined;

  read(h: Readonly<History>): ApprovalPolicy | undefined {
    const s = this.seen;
    if (s && s.h === h && h.length >= s.length && h[s.length - 1] === s.last) {
      for (let i = s.length; i < h.length; i++) this.mode = modeOf(h[i] as Message) ?? this.mode;
    } else {
      this.mode = toldApprovalMode(h);
    }
    this.seen = { h, length: h.length, last: h.at(-1) };
    return this.mode;
  }
}

/** The note that tells the model the mode changed (a user turn: mid-history system messages exist nowhere). */
export function approvalNote(mode: ApprovalPolicy, ts: string): Message {
  return {
    role: "user",
    content: `[Not a message from the user: the user changed the approval mode. From now on — approvals: ${APPROVAL_LINES[mode]}]`,
    meta: { ts, [APPROVAL_MODE_KEY]: mode },
  };
}
