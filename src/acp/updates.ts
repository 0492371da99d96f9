// What a session says (AgentEvents) as ACP `session/update`s: streamed text and reasoning, every tool
// call with its kind, title, locations and live content (a command's output as it streams, the diff of
// a change), the plan, the context reading, and notices. One mapper per ACP session.
import { readFileSync, statSync } from "node:fs";
import type { PlanEntry, SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../contract/events.ts";
import { PlanInput } from "../contract/registry.ts";
import {
  absolute,
  changedPaths,
  parseArgs,
  type ToolArgs,
  toolKind,
  toolLocations,
  toolTitle,
} from "./tool-view.ts";

/** A file larger than this is not shown as a diff (the editor would hold both copies). */
const DIFF_MAX_BYTES = 2 * 1024 * 1024;
/** The end of a command's output the editor is shown while it runs and after. */
export const OUTPUT_TAIL_CHARS = 64 * 1024;
/** A tool's text result as shown in the editor (the model gets all of it). */
const RESULT_MAX_CHARS = 16 * 1024;
/** Live output is sent at most this often per call (each update carries the whole tail). */
const OUTPUT_EVERY_MS = 100;

interface OpenCall {
  name: string;
  args: ToolArgs;
  /** the text of each file the call may change, before it ran (null: no such file) */
  before: Map<string, string | null>;
  output: string;
  lastSent: number;
  timer?: ReturnType<typeof setTimeout>;
  progress: string[];
  /** the editor's terminal the command ran in */
  terminalId?: string;
}

/** The text of a file, null when there is none, undefined when it is not text or too big to show. */
export function fileText(path: string): string | null | undefined {
  try {
    if (statSync(path).size > DIFF_MAX_BYTES) return undefined;
    const text = readFileSync(path, "utf8");
    return text.includes("\u0000") ? undefined : text;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** A command's output as a fenced block, its end when it is long. */
export function outputBlock(text: string): ToolCallContent {
  const tail = text.length > OUTPUT_TAIL_CHARS ? `…\n${text.slice(-OUTPUT_TAIL_CHARS)}` : text;
  const fence = tail.includes("```") ? "~~~~" : "```";
  return textContent(`${fence}console\n${tail.replace(/\n$/, "")}\n${fence}`);
}

export function clipped(text: string): string {
  return text.length > RESULT_MAX_CHARS
    ? `${text.slice(0, RESULT_MAX_CHARS)}\n… [${text.length - RESULT_MAX_CHARS} more characters]`
    : text;
}

/** The plan tool's arguments as ACP plan entries; undefined when they are not a plan. */
export function planEntries(args: ToolArgs): PlanEntry[] | undefined {
  const p = PlanInput.safeParse(args);
  if (!p.success) return undefined;
  return p.data.steps.map((s) => ({
    content: s.step,
    priority: "medium",
    status: s.status === "done" ? "completed" : s.status,
  }));
}

export class UpdateMapper {
  private readonly calls = new Map<string, OpenCall>();

  constructor(
    private readonly workspace: () => string,
    private readonly send: (u: SessionUpdate) => void,
    private readonly notices: boolean,
  ) {}

  /** The open call a question is about: the newest one of those names still running, else the newest. */
  openCall(names: readonly string[]): { id: string; args: ToolArgs } | undefined {
    let named: { id: string; args: ToolArgs } | undefined;
    let newest: { id: string; args: ToolArgs } | undefined;
    for (const [id, c] of this.calls) {
      newest = { id, args: c.args };
      if (names.includes(c.name)) named = newest;
    }
    return named ?? newest;
  }

  event(ev: AgentEvent): void {
    switch (ev.type) {
      case "text_delta":
        if (ev.text)
          this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: ev.text } });
        return;
      case "reasoning_delta":
        if (ev.text)
          this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: ev.text } });
        return;
      case "tool_call":
        this.toolCall(ev.id, ev.name, ev.arguments);
        return;
      case "tool_output":
        this.output(ev.id, ev.text);
        return;
      case "tool_result":
        this.result(ev);
        return;
      case "task":
        this.task(ev);
        return;
      case "budget":
        this.send({ sessionUpdate: "usage_update", used: ev.total, size: ev.context_window });
        return;
      case "compaction":
        this.compaction(ev);
        return;
      case "notice":
        this.notice(ev.level === "warn" ? "warning" : "info", ev.message);
        return;
      case "retry":
        this.notice("info", `the model's service failed (${ev.reason}); retrying (attempt ${ev.attempt})`);
        return;
      case "hook":
        this.notice("warning", `hook ${ev.hook}: ${ev.message}`);
        return;
      default:
        return;
    }
  }

  /** A notice: the client's own kind when it takes them, else a line of the agent's thoughts. */
  notice(severity: "info" | "warning" | "error", text: string): void {
    if (this.notices) this.send({ sessionUpdate: "notice", severity, title: text });
    else
      this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `\n[${text}]\n` } });
  }

  private compaction(ev: Extract<AgentEvent, { type: "compaction" }>): void {
    if (ev.phase === "start") this.notice("info", `compacting the conversation (${ev.reason})…`);
    else if (ev.phase === "done")
      this.notice(
        "info",
        `conversation compacted${ev.before_tokens && ev.after_tokens ? `: ${ev.before_tokens} → ${ev.after_tokens} tokens` : ""}`,
      );
    else if (ev.phase === "failed")
      this.notice("warning", `compaction failed: ${ev.error ?? "unknown cause"}`);
  }

  private toolCall(id: string, name: string, argsText: string): void {
    const args = parseArgs(argsText);
    const ws = this.workspace();
    const before = new Map<string, string | null>();
    for (const p of changedPaths(name, args, ws)) {
      const t = fileText(p);
      if (t !== undefined) before.set(p, t);
    }
    this.calls.set(id, { name, args, before, output: "", lastSent: 0, progress: [] });
    this.send({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: toolTitle(name, args),
      kind: toolKind(name),
      status: "in_progress",
      locations: toolLocations(name, args, ws),
      rawInput: args,
    });
    if (name === "plan") {
      const entries = planEntries(args);
      if (entries) this.send({ sessionUpdate: "plan", entries });
    }
  }

  private output(id: string, text: string): void {
    const c = this.calls.get(id);
    if (!c) return;
    c.output += text;
    if (c.output.length > OUTPUT_TAIL_CHARS * 2) c.output = c.output.slice(-OUTPUT_TAIL_CHARS);
    if (c.timer) return;
    const wait = Math.max(0, c.lastSent + OUTPUT_EVERY_MS - Date.now());
    c.timer = setTimeout(() => {
      c.timer = undefined;
      if (!this.calls.has(id)) return;
      c.lastSent = Date.now();
      this.send({ sessionUpdate: "tool_call_update", toolCallId: id, content: [outputBlock(c.output)] });
    }, wait);
  }

  private task(ev: Extract<AgentEvent, { type: "task" }>): void {
    const c = this.calls.get(ev.id);
    if (!c) return;
    const line =
      ev.phase === "start"
        ? `${ev.agent}: ${ev.description}${ev.session_id ? ` (session ${ev.session_id})` : ""}`
        : ev.phase === "progress"
          ? `${ev.agent}: ${ev.tool ? `running ${ev.tool}` : "working"}`
          : `${ev.agent}: ${ev.is_error ? "failed" : "finished"}`;
    c.progress.push(line);
    if (c.progress.length > 50) c.progress.splice(0, c.progress.length - 50);
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: ev.id,
      content: [textContent(c.progress.join("\n"))],
    });
  }

  private result(ev: Extract<AgentEvent, { type: "tool_result" }>): void {
    const c = this.calls.get(ev.id);
    this.calls.delete(ev.id);
    if (c?.timer) clearTimeout(c.timer);
    const content: ToolCallContent[] = [];
    if (c && !ev.is_error) content.push(...this.diffs(c));
    if (c?.terminalId) content.push({ type: "terminal", terminalId: c.terminalId });
    else if (c?.name === "bash") content.push(outputBlock(c.output || ev.content));
    else if (content.length === 0 || ev.is_error) content.push(textContent(clipped(ev.content)));
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: ev.id,
      status: ev.is_error ? "failed" : "completed",
      content,
      rawOutput: {
        is_error: ev.is_error,
        duration_ms: ev.duration_ms,
        ...(ev.exit_code !== undefined ? { exit_code: ev.exit_code } : {}),
      },
    });
  }

  private diffs(c: OpenCall): ToolCallContent[] {
    const out: ToolCallContent[] = [];
    for (const [path, oldText] of c.before) {
      const newText = fileText(absolute(this.workspace(), path));
      if (newText === undefined || newText === oldText) continue;
      out.push({ type: "diff", path, oldText, newText: newText ?? "" });
    }
    return out;
  }

  /** The running bash call runs in the editor's terminal `terminalId`: that terminal is its content. */
  terminal(terminalId: string): void {
    const call = this.openCall(["bash"]);
    const c = call && this.calls.get(call.id);
    if (!call || !c) return;
    c.terminalId = terminalId;
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: call.id,
      content: [{ type: "terminal", terminalId }],
    });
  }

  /** The turn ended: no call stays open (a cancelled one is answered by its result event). */
  reset(): void {
    for (const c of this.calls.values()) if (c.timer) clearTimeout(c.timer);
    this.calls.clear();
  }
}
