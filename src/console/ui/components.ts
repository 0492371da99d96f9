// Small live-region components: fixed lines, an animated activity line with elapsed time, and a timer
// that keeps the screen redrawing while something animates.
import type { Style } from "../../terminal/style.ts";
import { truncate } from "../../terminal/width.ts";
import type { Component, Screen } from "./screen.ts";

/** Lines set by their owner, cut to the width. */
export class Lines implements Component {
  constructor(private lines: string[] = []) {}
  set(lines: string[]): void {
    this.lines = lines;
  }
  render(width: number): string[] {
    return this.lines.map((l) => truncate(l, width));
  }
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/** "1.2s", "1m05s". */
export function formatElapsed(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.floor(s % 60)).padStart(2, "0")}s`;
}

/**
 * A spinner, a label and the time since it started, with optional detail lines under it (a command's
 * output tail). Redraws itself while mounted, so the user sees that something is happening.
 */
export class Activity implements Component {
  private started = Date.now();
  private timer: ReturnType<typeof setInterval> | undefined;
  label = "";
  /** extra text after the elapsed time (e.g. tokens streamed) */
  suffix = "";
  detail: string[] = [];

  constructor(
    private readonly screen: Screen,
    private readonly style: Style,
  ) {}

  start(label: string): void {
    this.label = label;
    this.suffix = "";
    this.detail = [];
    this.started = Date.now();
    this.timer ??= setInterval(() => this.screen.invalidate(), FRAME_MS);
    this.timer.unref?.();
  }

  get elapsedMs(): number {
    return Date.now() - this.started;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  render(width: number): string[] {
    const frame = FRAMES[Math.floor(Date.now() / FRAME_MS) % FRAMES.length] ?? "";
    const s = this.style;
    const head = `${s.cyan(frame)} ${this.label} ${s.dim(`${formatElapsed(this.elapsedMs)}${this.suffix}`)}`;
    return [truncate(head, width), ...this.detail.map((l) => truncate(`  ${s.dim(l)}`, width))];
  }
}
