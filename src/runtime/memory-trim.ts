// Keeps a long-lived process's resident memory near what it actually uses. The JavaScript heap of the core
// and of a worker stays small (a few MB of live data), but every turn allocates and drops strings the
// size of the history (request bodies, checkpoints, hook lines), and the allocator keeps the freed pages:
// over 1,000 turns a worker's RSS grew from ~60 to ~90 MB with a ~10 MB heap. A full collection gives
// them back. It costs a few milliseconds, so it runs only when RSS has grown by GROWTH_BYTES since the
// last one, checked every CHECK_EVERY calls (reading RSS is cheap, collecting is not).
import { collectGarbage } from "./runtime.ts";

export const GROWTH_BYTES = 6 * 1024 * 1024;
export const CHECK_EVERY = 8;

export class MemoryTrim {
  private calls = 0;
  private base: number;

  constructor(
    private readonly growth = GROWTH_BYTES,
    private readonly every = CHECK_EVERY,
  ) {
    this.base = process.memoryUsage.rss();
  }

  /** Call at a point where a few ms do not hold anyone up (after a reply is written, after a checkpoint). */
  maybeCollect(): boolean {
    if (++this.calls % this.every !== 0) return false;
    if (process.memoryUsage.rss() - this.base < this.growth) return false;
    collectGarbage();
    this.base = process.memoryUsage.rss();
    return true;
  }
}
