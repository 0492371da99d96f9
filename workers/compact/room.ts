// The room the commit may fill. The core sends `restore_room`: the estimator tokens the candidate may grow
// by and still fit the hard limit. What the commit restores (the user's messages, file snapshots) is
// measured with the same estimator and taken from it, so a restoration never pushes the candidate over;
// what does not fit is left out (it stays in the session log and in the summary's file list).

import type { Message } from "../../src/contract/history.ts";
import { tallyMessage, textTokens } from "../../src/lib/estimator.ts";

export class Room {
  constructor(public left: number) {}

  /** No bound: a core that sends no `restore_room`. */
  static unbounded(): Room {
    return new Room(Number.POSITIVE_INFINITY);
  }

  /** Takes `tokens` (rounded up: the estimate rounds once over the sum) when they fit. */
  take(tokens: number): boolean {
    const t = Math.ceil(tokens);
    if (t > this.left) return false;
    this.left -= t;
    return true;
  }

  /** What `m` costs as a message of the candidate. */
  static messageTokens(m: Message): number {
    const t = { text: 0, images: 0 };
    tallyMessage(m, t);
    return t.text;
  }

  /** What `s` costs appended to a text part. */
  static textTokens(s: string): number {
    return textTokens(s);
  }
}

/** The room in the commit data, or no bound when the core sends none. */
export function roomOf(data: { restore_room?: unknown }): Room {
  const r = data.restore_room;
  return typeof r === "number" && Number.isFinite(r) && r >= 0 ? new Room(Math.floor(r)) : Room.unbounded();
}
