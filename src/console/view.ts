// The console's display of agent events on the Screen: streamed markdown, tool calls and their results,
// live activity (waiting for the model, a command's output tail, compaction stages), notices and errors,
// and the status line. Every string from the model, a tool, a worker or the session is sanitised before
// it is styled.

import type { AgentEvent } from "../contract/events.ts";
import type { Message } from "../contract/history.ts";
import type { Usage } from "../contract/usage.ts";
import { hookLine } from "../lib/hook-line.ts";
import { requestCost } from "../lib/request-cost.ts";
import { retryText } from "../lib/retry-text.ts";
import { StreamSanitizer, sanitize } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { diagnosticsLine } from "./diagnostics-line.ts";
import { MarkdownRenderer } from "./markdown/render.ts";
import { MarkdownStream } from "./markdown/stream.ts";
import { type PlanStep, PlanView, planProgress, planSteps } from "./plan-view.ts";
import { formatTokens, StatusLine, type StatusState } from "./status-line.ts";
import { TaskLines } from "./task-view.ts";

/** A session's token totals and cost, as AgentSession.sessionUsage gives them. */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cost_usd?: number;
}

import { tailLines, toolCallLines, toolResultLines } from "./tool-view.ts";
import { Activity, formatElapsed } from "./ui/components.ts";
import type { Screen } from "./ui/screen.ts";

type DiffEvent = Extract<AgentEvent, { type: "tool_diff" }>;

/** Live-region order: the streaming block on top, then activity, status and (lowest) the input. */
export const ORDER = { stream: 10, activity: 50, tasks: 55, plan: 70, status: 80, input: 100 } as const;

const TAIL_LINES = 5;
/** The running tool's id while a `!command` runs (no model call has it). */
const SHELL_ID = "\u0000user-shell";
const TAIL_KEEP_CHARS = 4096;

export class ConsoleView {
  readonly md: MarkdownRenderer;
  private readonly stream: MarkdownStream;
  private readonly activity: Activity;
  private readonly tasks: TaskLines;
  readonly status: StatusLine;
  private streamedChars = 0;
  private tool: { id: string; name: string; tail: string; sanitizer: StreamSanitizer } | undefined;
  private readonly diffs = new Map<string, DiffEvent>();
  /** a language server's line for a call, shown under its result */
  private readonly diagnostics = new Map<string, string>();
  private compactionStarted = 0;
  private inTurn = false;
  /** a finished compaction waiting for the budget reading that follows it */
  private compacted: { ev: Extract<AgentEvent, { type: "compaction" }>; took: string } | undefined;
  private gapped = true;
  /** reasoning streaming now, and the last one that finished (Ctrl-O shows it) */
  private thinking: { text: string; started: number } | undefined;
  private readonly plan: PlanView;
  private lastReasoning = "";
  /** notes said while a tool ran, shown after its result */
  private held: string[] = [];
  /** the user cancelled what runs (reset when it has settled) */
  private cancelling = false;
  /** a reply's text is arriving */
  private streaming = false;

  constructor(
    private readonly screen: Screen,
    private readonly s: Style,
    status: StatusState,
  ) {
    this.md = new MarkdownRenderer(s);
    this.stream = new MarkdownStream(
      this.md,
      (lines) => screen.commit(lines),
      () => screen.width,
    );
    this.activity = new Activity(screen, s);
    this.tasks = new TaskLines(s);
    this.status = new StatusLine(status, s);
    this.plan = new PlanView(s);
    screen.mount("stream", this.stream, ORDER.stream);
  }

  /** Show the status line at the bottom (once the run's model and provider are known). */
  showStatus(on = true): void {
    if (!this.screen.caps.cursor) return;
    if (on) this.screen.mount("status", this.status, ORDER.status);
    else this.screen.unmount("status");
  }

  /** A blank line between sections (a reply, a tool call), never two in a row. */
  private gap(): void {
    if (this.gapped) return;
    this.screen.commit([""]);
    this.gapped = true;
  }

  /** Committed lines of our own (already styled and safe). */
  print(...lines: string[]): void {
    this.endStream();
    this.screen.commit(lines);
    this.gapped = lines.at(-1) === "";
  }

  /** One line of untrusted text in a colour. */
  say(paint: (t: string) => string, text: string): void {
    this.print(
      ...sanitize(text)
        .split("\n")
        .map((l) => paint(l)),
    );
  }

  private busy(label: string): void {
    this.activity.start(label);
    if (this.screen.caps.cursor) this.screen.mount("activity", this.activity, ORDER.activity);
  }

  private idle(): void {
    this.activity.stop();
    this.screen.unmount("activity");
  }

  /** After an interlude (compaction) inside a turn, the turn is waiting for the model again. */
  private resume(): void {
    if (this.inTurn) this.busy("thinking");
    else this.idle();
  }

  private endStream(): void {
    if (this.stream.active) this.stream.finish();
    this.streaming = false;
  }

  /** An approval question waits for the user: the running tool's clock is not what matters now. */
  approval(waiting: boolean): void {
    if (waiting) this.screen.unmount("activity");
    else if (this.tool) this.busy(this.tool.name);
  }

  /**
   * Tokens (and cost) of the session so far: the session's own totals, which count requests compaction
   * dropped from the history; a session saved before those were kept counts its history's replies.
   */
  countUsage(history: readonly Message[], totals?: UsageTotals): void {
    const st = this.status.state;
    st.tokensIn = 0;
    st.tokensOut = 0;
    delete st.costUsd;
    if (totals) {
      st.tokensIn = totals.input_tokens;
      st.tokensOut = totals.output_tokens;
      if (totals.cost_usd !== undefined) st.costUsd = totals.cost_usd;
      return;
    }
    for (const m of history) this.addUsage(m);
  }

  /** A reply's tokens, and its cost at the price of the model that served it (the current one). */
  private addUsage(m: Message): void {
    const u = m.meta?.usage as Partial<Usage> | undefined;
    if (!u) return;
    const st = this.status.state;
    const i = u.input_tokens ?? 0;
    const o = u.output_tokens ?? 0;
    st.tokensIn += i;
    st.tokensOut += o;
    // What the provider billed, when it says (OpenRouter), over the list price; cached input at its own.
    const cost = requestCost({ ...u, input_tokens: i, output_tokens: o }, st.price);
    if (cost !== undefined) st.costUsd = (st.costUsd ?? 0) + cost;
  }

  /** A `plan` call's steps on the checklist above the prompt; false when its arguments are no plan. */
  showPlan(args: string): boolean {
    const steps = planSteps(args);
    if (!steps) return false;
    this.setPlan(steps);
    return true;
  }

  /** The checklist shows these steps (none: it leaves the screen). */
  setPlan(steps: PlanStep[] | undefined): void {
    this.plan.steps = steps ?? [];
    if (!this.screen.caps.cursor) return;
    if (steps) this.screen.mount("plan", this.plan, ORDER.plan);
    else this.screen.unmount("plan");
    this.screen.invalidate();
  }

  /** The model's reasoning streams: one live dim line (its latest words) under the activity. */
  private reasoning(text: string): void {
    if (!this.thinking) this.thinking = { text: "", started: Date.now() };
    this.thinking.text += text;
    this.activity.label = "reasoning";
    const last = sanitize(this.thinking.text).replace(/\s+/g, " ").trim();
    const room = Math.max(10, this.screen.width - 8);
    this.activity.detail = [this.s.dim(last.length > room ? `…${last.slice(-(room - 1))}` : last)];
    this.screen.invalidate();
  }

  /** The reasoning ended (the answer or a call begins): one collapsed dim line stays; Ctrl-O opens it. */
  private endReasoning(): void {
    const t = this.thinking;
    if (!t) return;
    this.thinking = undefined;
    this.activity.detail = [];
    this.lastReasoning = t.text;
    const words = t.text.split(/\s+/).filter((w) => w !== "").length;
    this.gap();
    this.print(
      this.s.dim(
        `∴ reasoned for ${formatElapsed(Date.now() - t.started)} · ${words} words · Ctrl-O shows it`,
      ),
    );
  }

  /** Ctrl-O: the last reasoning whole, dimmed, in the transcript. */
  expandReasoning(): void {
    const text = this.lastReasoning;
    if (!text) {
      this.print(this.s.dim("no reasoning to show yet"));
      return;
    }
    this.print(
      this.s.dim("∴ the model's reasoning:"),
      ...sanitize(text)
        .trimEnd()
        .split("\n")
        .map((l) => this.s.dim(`  ${l}`)),
    );
  }

  /**
   * A line of our own said while something runs: while a tool runs it waits for the tool's result, so it
   * never lands between a call's header and its result.
   */
  note(line: string): void {
    if (this.tool) this.held.push(line);
    else this.print(line);
  }

  private releaseNotes(): void {
    if (this.held.length === 0) return;
    const lines = this.held;
    this.held = [];
    this.print(...lines);
  }

  /** `!command` runs: the same activity line and live output tail as the model's bash. */
  shellStarted(command: string): void {
    this.tool = { id: SHELL_ID, name: "bash", tail: "", sanitizer: new StreamSanitizer() };
    this.busy(`! ${sanitize(command).split("\n")[0] ?? ""}`);
  }

  shellOutput(text: string): void {
    this.onEvent({ type: "tool_output", id: SHELL_ID, text });
  }

  shellEnded(): void {
    this.tool = undefined;
    this.idle();
    this.releaseNotes();
  }

  /** false: config.json says reasoning is not shown (it is still kept with the message) */
  showReasoning = true;

  /** The user asked to stop what runs: a compaction failing now was cancelled, and its caller says so. */
  cancelRequested(): void {
    this.cancelling = true;
  }

  /** Nothing is running: the stream closed, no activity, no tool. */
  settle(): void {
    this.cancelling = false;
    this.tool = undefined;
    this.releaseNotes();
    this.endStream();
    this.idle();
    this.inTurn = false;
    this.tool = undefined;
    this.screen.invalidate();
  }

  /** The turn is over (or stopped): nothing animates any more; without a live region, show the status. */
  turnEnded(): void {
    this.showCompacted();
    this.settle();
    if (!this.screen.caps.cursor) this.screen.commit([this.status.text(this.screen.width)]);
    this.screen.invalidate();
  }

  /**
   * The result line of a finished compaction. Its figures are put on the status line's scale: the record
   * holds raw estimates, the budget reading after it the calibrated figure the next request is checked
   * against, and the two must not disagree on screen.
   */
  private showCompacted(next?: Extract<AgentEvent, { type: "budget" }>): void {
    const done = this.compacted;
    if (!done) return;
    this.compacted = undefined;
    const { ev, took } = done;
    const rawBefore = ev.before_tokens ?? 0;
    const rawAfter = ev.after_tokens ?? 0;
    const factor = next && rawAfter > 0 ? next.total / rawAfter : 1;
    const before = Math.round(rawBefore * factor);
    const after = next ? next.total : rawAfter;
    const route =
      ev.route === "local"
        ? "local summary"
        : ev.route === "prune"
          ? "old tool outputs pruned"
          : "model summary";
    const what =
      ev.summarised !== undefined ? ` ${ev.summarised} message${ev.summarised === 1 ? "" : "s"}` : "";
    const line = `⟳ compacted${what}: ${formatTokens(before)} → ${formatTokens(after)} tokens (${route}) · ${took} · /compactions shows what was kept`;
    // Saving nothing is not a success, whatever the pipeline says.
    this.print(rawAfter < rawBefore ? this.s.green(line) : this.s.yellow(`${line} — it saved nothing`));
  }

  onEvent(ev: AgentEvent): void {
    const s = this.s;
    const width = this.screen.width;
    if (ev.type === "budget") {
      this.status.state.context = { total: ev.total, hardLimit: ev.hard_limit };
      this.showCompacted(ev);
      this.screen.invalidate();
      return;
    }
    this.showCompacted();
    switch (ev.type) {
      case "session":
        this.print(
          s.dim(`${ev.resumed ? "resumed" : "new"} session ${sanitize(ev.id)} · ${sanitize(ev.workspace)}`),
        );
        return;
      case "turn_start":
        this.streamedChars = 0;
        this.inTurn = true;
        this.busy("thinking");
        return;
      case "reasoning_delta":
        if (this.showReasoning) this.reasoning(ev.text);
        return;
      case "text_delta":
        this.endReasoning();
        this.activity.detail = [];
        if (!this.streaming) this.gap();
        this.streaming = true;
        this.stream.push(ev.text);
        this.gapped = false;
        this.streamedChars += ev.text.length;
        this.activity.label = "writing";
        this.activity.suffix = ` · ~${formatTokens(Math.ceil(this.streamedChars / 4))} tokens`;
        this.screen.invalidate();
        return;
      case "assistant":
        this.endReasoning();
        this.endStream();
        this.addUsage(ev.message);
        this.screen.invalidate();
        return;
      case "tool_call":
        this.endReasoning();
        this.endStream();
        this.gap();
        if (ev.name === "plan" && this.showPlan(ev.arguments)) {
          this.print(`${s.cyan("⏺")} ${s.bold("plan")} ${s.dim(planProgress(this.plan.steps))}`);
          this.tool = { id: ev.id, name: ev.name, tail: "", sanitizer: new StreamSanitizer() };
          this.busy("plan");
          return;
        }
        this.print(...toolCallLines(ev.name, ev.arguments, s, width));
        this.tool = { id: ev.id, name: ev.name, tail: "", sanitizer: new StreamSanitizer() };
        this.busy(`${ev.name}`);
        return;
      case "tool_output": {
        const t = this.tool;
        if (!t || t.id !== ev.id) return;
        t.tail = (t.tail + t.sanitizer.push(ev.text)).slice(-TAIL_KEEP_CHARS);
        this.activity.detail = tailLines(t.tail, TAIL_LINES, width);
        this.screen.invalidate();
        return;
      }
      case "tool_diff":
        this.diffs.set(ev.id, ev);
        return;
      case "diagnostics": {
        const line = diagnosticsLine(ev, s, width);
        if (line) this.diagnostics.set(ev.id, line);
        return;
      }
      case "tool_result": {
        const diff = this.diffs.get(ev.id);
        this.diffs.delete(ev.id);
        this.tool = undefined;
        this.idle();
        // A plan that was taken is on the checklist: its echo for the model is not repeated here.
        if (!(ev.name === "plan" && !ev.is_error)) this.print(...toolResultLines(ev, diff, s, width));
        const problems = this.diagnostics.get(ev.id);
        this.diagnostics.delete(ev.id);
        if (problems) this.print(problems);
        this.releaseNotes();
        this.busy("thinking");
        return;
      }
      case "compaction":
        this.compaction(ev);
        return;
      case "compaction_step":
        this.activity.label = `compacting (${ev.reason}) · ${ev.step}`;
        this.screen.invalidate();
        return;
      case "retry":
        this.say(s.yellow, `↻ ${retryText(ev.reason, ev.attempt, ev.delay_ms)}`);
        return;
      case "notice":
        this.say(
          ev.level === "warn" ? s.yellow : s.dim,
          ev.level === "warn" ? `! ${ev.message}` : ev.message,
        );
        return;
      case "error":
        this.say(s.red, `✗ ${ev.message}`);
        return;
      case "task": {
        const ended = this.tasks.onEvent(ev);
        if (ended) this.print(ended);
        if (this.tasks.size > 0 && this.screen.caps.cursor)
          this.screen.mount("tasks", this.tasks, ORDER.tasks);
        else this.screen.unmount("tasks");
        this.screen.invalidate();
        return;
      }
      case "hook":
        this.say(
          ev.outcome === "block" ? s.red : s.yellow,
          `${ev.outcome === "block" ? "⊘" : "!"} ${hookLine(ev)}`,
        );
        return;
      case "done":
        return;
    }
  }

  private compaction(ev: Extract<AgentEvent, { type: "compaction" }>): void {
    const s = this.s;
    const took = formatElapsed(Date.now() - this.compactionStarted);
    switch (ev.phase) {
      case "start":
        this.compactionStarted = Date.now();
        this.print(s.yellow(`⟳ compacting (${ev.reason})…`));
        this.busy(`compacting (${ev.reason}) · planning`);
        return;
      case "done":
        this.resume();
        // Shown with the budget reading that follows it, so its figures are the status line's.
        this.compacted = { ev, took };
        return;
      case "failed": {
        this.resume();
        // Cancelled by the user: not a failure; the turn's or /compact's own line says it was cancelled.
        if (this.cancelling) return;
        // The pipeline's own error starts "compaction failed at STEP: …"; said once, not twice.
        const error = ev.error ?? "unknown error";
        const m = /^compaction failed (at \S+?): ([\s\S]*)$/.exec(error);
        this.say(
          s.red,
          m
            ? `⟳ compaction failed ${m[1]} after ${took}: ${m[2]}`
            : `⟳ compaction failed after ${took}: ${error}`,
        );
        return;
      }
      case "skipped":
        this.resume();
        this.say(s.yellow, `⟳ nothing compacted${ev.error ? `: ${ev.error}` : ""}`);
        return;
    }
  }
}
