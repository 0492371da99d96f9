// Sub-agents in the console: one nested line per running task under the activity line (its agent, its
// description, the tool it runs now, how long it has run), and one line when it ends. The task's text
// comes from the model and the child: sanitised before it is styled.
import type { AgentEvent } from "../contract/events.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate } from "../terminal/width.ts";
import { formatTokens } from "./status-line.ts";
import { formatElapsed } from "./ui/components.ts";
import type { Component } from "./ui/screen.ts";

type TaskEvent = Extract<AgentEvent, { type: "task" }>;

interface Running {
  agent: string;
  description: string;
  tool?: string;
  started: number;
}

export class TaskLines implements Component {
  private readonly running = new Map<string, Running>();

  constructor(private readonly s: Style) {}

  get size(): number {
    return this.running.size;
  }

  /** Follow one task event; returns the line to print when the task ended. */
  onEvent(ev: TaskEvent): string | undefined {
    if (ev.phase === "start") {
      this.running.set(ev.id, { agent: ev.agent, description: ev.description, started: Date.now() });
      return undefined;
    }
    const t = this.running.get(ev.id);
    if (ev.phase === "progress") {
      if (!t) return undefined;
      if (ev.tool) t.tool = ev.tool;
      else delete t.tool;
      return undefined;
    }
    this.running.delete(ev.id);
    const s = this.s;
    const took = formatElapsed(ev.duration_ms ?? (t ? Date.now() - t.started : 0));
    const tokens = ev.usage
      ? ` · ${formatTokens(ev.usage.input_tokens + ev.usage.output_tokens)} tokens`
      : "";
    const mark = ev.is_error ? s.red("✗") : s.green("✓");
    return `${mark} task ${s.bold(sanitizeLine(ev.agent))} · ${sanitizeLine(ev.description)} ${s.dim(`· ${took}${tokens}`)}`;
  }

  render(width: number): string[] {
    const s = this.s;
    const now = Date.now();
    return [...this.running.values()].map((t) => {
      const tool = t.tool ? ` · ${sanitizeLine(t.tool)}` : "";
      const line = `  ↳ ${s.bold(sanitizeLine(t.agent))} · ${sanitizeLine(t.description)}${s.cyan(tool)} ${s.dim(formatElapsed(now - t.started))}`;
      return truncate(line, width);
    });
  }
}
