// What the model last saw of each file: the file's identity, size and modification time when `read`
// returned it or a file tool last wrote it. An edit of a file that changed on disk since then (the user
// saved it, a formatter rewrote it, a command edited it) is refused: the model's old_text and its idea of
// the surroundings may both be out of date, and a match would write over what it never saw.
//
// A file the model never read may still be edited: old_text matching the file already proves the model
// knows that part (it saw it through grep, bash or an earlier session), and requiring a read first would
// cost a round trip for nothing. Only a file seen and then changed behind the model's back is refused.
import { statSync } from "node:fs";

interface Seen {
  ino: number;
  size: number;
  mtimeMs: number;
  at: number;
}

export interface StatLike {
  ino: number;
  size: number;
  mtimeMs: number;
}

export class FileTimes {
  private readonly seen = new Map<string, Seen>();

  /** The model has seen `real` as it is now (`st` from the open descriptor when there is one). */
  record(real: string, st?: StatLike): void {
    let s = st;
    if (!s) {
      try {
        s = statSync(real);
      } catch {
        this.seen.delete(real);
        return;
      }
    }
    this.seen.set(real, { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, at: Date.now() });
  }

  /** Why `real` must be read again before it is changed, or undefined when it may be. */
  staleReason(real: string, shown: string, st: StatLike): string | undefined {
    const s = this.seen.get(real);
    if (!s) return undefined;
    if (s.ino === st.ino && s.size === st.size && s.mtimeMs === st.mtimeMs) return undefined;
    const when = new Date(s.at).toTimeString().slice(0, 8);
    return `${shown} changed on disk since you last read it (at ${when}), by the user, a command or another program; read it again and then edit it, so no change you have not seen is overwritten`;
  }
}
