// The one path of every tool call, whatever kind of tool answers it (core, module, run-time declared):
// find the tool → parse the JSON arguments → read them forgivingly and check them against its schema →
// beforeCall (may block) → the tool works out what would change → the approval decision →
// beforeFirstChange (once a turn, before the first call that may change files) → apply → the one output
// cap → afterCall → the forgiving reading's notes → recorded as tool_call/tool_result events. Every step's failure is a tool result the model can act on, never a throw,
// and every call of a batch gets exactly one result, in order, so the history stays valid.
//
// A kind of tool is one adapter (ToolAdapter): it lists its tools, each with a validator, whether it may
// change files, how its output is bounded, and `prepare`. The seams (DispatchSeams) are where user hooks and
// workspace checkpoints plug in without editing this file.
import { errorMessage } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import { contentWithImageMarkers, type Message, type ToolCall } from "../contract/history.ts";
import { type ArgsCheck, parseArguments, withNotes } from "./arguments.ts";
import { capToolOutput, type OutputBound } from "./output-cap.ts";
import { runInGroups } from "./parallel-calls.ts";
import { ToolError } from "./tool-error.ts";
import type { PreparedCall, ToolContext, ToolDecl, ToolReport, ToolResult } from "./types.ts";

export type ToolKind = "core" | "module" | "declared";

/** One tool as the dispatch sees it, whatever its kind. */
export interface DispatchTool {
  decl: ToolDecl;
  kind: ToolKind;
  /** who answers it: "core", or the module that declared it */
  owner: string;
  /** it may change files in the workspace */
  mayChange: boolean;
  bound: OutputBound;
  /** the parsed JSON arguments checked (arguments.ts words every mistake) */
  check(args: unknown): ArgsCheck;
  /** the call worked out up to the approval question; a ToolError thrown here is the model's to read */
  prepare(args: unknown, ctx: ToolContext, callId: string): Promise<PreparedCall>;
}

export interface ToolAdapter {
  /** the tools of this kind offered now (a run-time declared set may change between calls) */
  tools(): readonly DispatchTool[];
}

/** What a seam is told about a call: its arguments are the checked ones. */
export interface ToolCallInfo {
  readonly id: string;
  readonly name: string;
  readonly kind: ToolKind;
  readonly owner: string;
  readonly args: unknown;
  readonly mayChange: boolean;
}

/** Where later work plugs into every call, without editing the dispatch. Each is optional. */
export interface DispatchSeams {
  /** before the tool works anything out (PreToolUse); `{ block }` refuses the call with that reason */
  beforeCall?: (call: ToolCallInfo) => Promise<{ block: string } | undefined>;
  /** once a turn, after the approval and before the first call that may change files (a checkpoint);
   * a rejection refuses that call, and the next such call tries again */
  beforeFirstChange?: (call: ToolCallInfo) => Promise<void>;
  /** after the tool ran, with its capped result (PostToolUse; not for a call refused or failed before
   * it ran); a result returned replaces it, capped again */
  afterCall?: (call: ToolCallInfo, result: ToolResult) => Promise<ToolResult | undefined>;
}

export interface DispatchOptions {
  /** the kinds of tool, looked up in this order: the first adapter with a name answers it */
  adapters: readonly ToolAdapter[];
  ctx: Omit<ToolContext, "signal" | "report">;
  emit: EmitEvent;
  /** estimated tokens one result may take (a share of the model's window); unbounded when absent */
  resultTokenCap?: number;
  seams?: DispatchSeams;
  /** only these tools are offered and answered (a child agent's narrower set) */
  allowed?: ReadonlySet<string>;
  /** tools whose calls in one message may run at once (a child task), at most `max` at a time */
  parallel?: { names: ReadonlySet<string>; max: number };
}

const error = (content: string): ToolResult => ({ content, is_error: true });

/** A failure inside a tool, worded for the model: its own ToolError as it is, anything else named. */
function failure(name: string, err: unknown): ToolResult {
  if (err instanceof ToolError) return error(err.message);
  return error(`${name} failed: ${errorMessage(err)}`);
}

export class ToolDispatch {
  constructor(private readonly opts: DispatchOptions) {}

  /** Every tool offered now, in adapter order. */
  decls(): ToolDecl[] {
    const all = this.opts.adapters.flatMap((a) => a.tools().map((t) => t.decl));
    const { allowed } = this.opts;
    return allowed ? all.filter((d) => allowed.has(d.name)) : all;
  }

  find(name: string): DispatchTool | undefined {
    if (this.opts.allowed && !this.opts.allowed.has(name)) return undefined;
    for (const a of this.opts.adapters) {
      const t = a.tools().find((x) => x.decl.name === name);
      if (t) return t;
    }
    return undefined;
  }

  /** The calls of one turn: beforeFirstChange runs at most once over all of its batches. */
  turn(signal?: AbortSignal): ToolTurn {
    return new ToolTurn(this, this.opts, signal);
  }
}

export class ToolTurn {
  private changed = false;
  /** time spent waiting for the user's approval answers: not part of a call's duration */
  private askedMs = 0;

  constructor(
    private readonly dispatch: ToolDispatch,
    private readonly opts: DispatchOptions,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** One call, without events; `report` receives what the tool shows while it runs. */
  async execute(call: ToolCall, report?: (r: ToolReport) => void): Promise<ToolResult> {
    const tool = this.dispatch.find(call.name);
    const { allowed } = this.opts;
    if (!tool && allowed && !allowed.has(call.name))
      return error(
        `tool "${call.name}" is not available to this agent; its tools: ${[...allowed].join(", ")}`,
      );
    if (!tool) {
      const names = this.dispatch.decls().map((d) => d.name);
      return error(`unknown tool "${call.name}"; available tools: ${names.join(", ")}`);
    }
    const parsed = parseArguments(call);
    if (!parsed.ok) return error(parsed.error);
    const checked = tool.check(parsed.value);
    if (!checked.ok) return error(checked.error);
    const info: ToolCallInfo = {
      id: call.id,
      name: call.name,
      kind: tool.kind,
      owner: tool.owner,
      args: checked.value,
      mayChange: tool.mayChange,
    };
    // What the forgiving reading of the arguments did follows whatever the call comes to.
    return withNotes(await this.run(tool, info, report), checked.notes ?? []);
  }

  private async run(
    tool: DispatchTool,
    info: ToolCallInfo,
    report: ((r: ToolReport) => void) | undefined,
  ): Promise<ToolResult> {
    const { seams } = this.opts;
    if (seams?.beforeCall) {
      let verdict: { block: string } | undefined;
      try {
        verdict = await seams.beforeCall(info);
      } catch (err) {
        return error(`${info.name} was not run: the check before it failed: ${errorMessage(err)}`);
      }
      if (verdict) return error(`${info.name} was blocked before it ran: ${verdict.block}`);
    }
    const ctx: ToolContext = {
      ...this.opts.ctx,
      ...(this.signal ? { signal: this.signal } : {}),
      ...(report ? { report } : {}),
    };
    let result: ToolResult;
    try {
      const prepared = await tool.prepare(info.args, ctx, info.id);
      if (prepared.change) {
        const asked = Date.now();
        const refused = await ctx.approvals.check(prepared.change.request, prepared.change.command);
        this.askedMs += Date.now() - asked;
        if (refused) return error(refused);
      }
      const blocked = await this.beforeChange(tool, info);
      if (blocked) return blocked;
      result = capToolOutput(await prepared.apply(), tool.bound, this.opts.resultTokenCap);
    } catch (err) {
      return capToolOutput(failure(info.name, err), tool.bound, this.opts.resultTokenCap);
    }
    return this.after(tool, info, result);
  }

  private async beforeChange(tool: DispatchTool, info: ToolCallInfo): Promise<ToolResult | undefined> {
    const hook = this.opts.seams?.beforeFirstChange;
    if (!tool.mayChange || this.changed || !hook) return undefined;
    try {
      await hook(info);
    } catch (err) {
      return error(
        `${info.name} was not run: the checkpoint before the turn's first change failed: ${errorMessage(err)}`,
      );
    }
    this.changed = true;
    return undefined;
  }

  private async after(tool: DispatchTool, info: ToolCallInfo, result: ToolResult): Promise<ToolResult> {
    const hook = this.opts.seams?.afterCall;
    if (!hook) return result;
    try {
      const replaced = await hook(info, result);
      return replaced ? capToolOutput(replaced, tool.bound, this.opts.resultTokenCap) : result;
    } catch (err) {
      // The call already happened: its result stands, and the failing observer is reported, not the tool.
      this.opts.emit({ type: "notice", level: "warn", message: `after ${info.name}: ${errorMessage(err)}` });
      return result;
    }
  }

  /** Results for every call of `calls`, recorded as events; after an abort the rest are answered as
   * cancelled, never skipped. */
  runBatch(calls: ToolCall[]): Promise<Message[]> {
    return runInGroups(calls, this.opts.parallel, (call) => this.runOne(call));
  }

  private async runOne(call: ToolCall): Promise<Message> {
    const { emit } = this.opts;
    {
      let result: ToolResult;
      const started = Date.now();
      const askedBefore = this.askedMs;
      let exitCode: number | null | undefined;
      if (this.signal?.aborted) {
        result = error("cancelled by the user before it ran");
      } else {
        emit({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
        result = await this.execute(call, (r) => {
          if (r.kind === "output") emit({ type: "tool_output", id: call.id, text: r.text });
          else if (r.kind === "exit") exitCode = r.code;
          else emit({ type: "tool_diff", id: call.id, path: r.path, ...r.diff });
        });
      }
      const duration = Math.max(0, Date.now() - started - (this.askedMs - askedBefore));
      const shown = { duration_ms: duration, ...(exitCode !== undefined ? { exit_code: exitCode } : {}) };
      emit({
        type: "tool_result",
        id: call.id,
        name: call.name,
        is_error: result.is_error,
        content: contentWithImageMarkers(result.content),
        ...shown,
      });
      // The time and exit code are kept with the result (never sent): a resumed session shows them.
      return {
        role: "tool",
        tool_call_id: call.id,
        content: result.content,
        meta: { ...(result.is_error ? { is_error: true } : {}), ...shown },
      };
    }
  }
}
