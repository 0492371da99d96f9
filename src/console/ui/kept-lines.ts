// The lines the screen has committed to the scrollback, newest last, so that they can be printed again
// in a new width after a resize. Bounded: past `max` the oldest go, and are counted.
export class KeptLines {
  private readonly items: string[] = [];
  private start = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  push(lines: readonly string[]): void {
    for (const l of lines) this.items.push(l);
    const over = this.items.length - this.start - this.max;
    if (over > 0) {
      this.start += over;
      this.dropped += over;
    }
    // Compact now and then instead of shifting on every push.
    if (this.start > this.max) {
      this.items.splice(0, this.start);
      this.start = 0;
    }
  }

  /** Forget every line (the screen and its scrollback were erased). */
  clear(): void {
    this.items.length = 0;
    this.start = 0;
    this.dropped = 0;
  }

  lines(): string[] {
    return this.items.slice(this.start);
  }
}
