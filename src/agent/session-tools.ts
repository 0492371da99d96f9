// Module tools that must know their session: the `task` tool is told who its parent is (workspace, model,
// approvals, the tools the parent has, a one-time ticket for the API key) with each call, and its progress
// becomes `task` events (start, the child's current tool, end) for the console and `--json`.
import type { EmitEvent } from "../contract/events.ts";
import type { ToolCall } from "../contract/history.ts";
import type { ToolResult } from "../contract/protocol.ts";
import type { TaskContext } from "../contract/tasks.ts";
import { TaskProgress } from "../contract/tasks.ts";
import type { ToolCallOptions } from "../worker/types.ts";

export interface SessionToolsDeps {
  /** tool names that take a context */
  names: ReadonlySet<string>;
  /** the parent's context for one call (a fresh credential ticket each time) */
  context: () => Promise<TaskContext>;
  emit: EmitEvent;
}

function taskArgs(call: ToolCall): { agent: string; description: string } {
  try {
    const a = JSON.parse(call.arguments) as { agent?: unknown; description?: unknown };
    return {
      agent: typeof a.agent === "string" ? a.agent : "general",
      description: typeof a.description === "string" ? a.description : "",
    };
  } catch {
    return { agent: "general", description: "" };
  }
}

export class SessionTools {
  constructor(private readonly deps: SessionToolsDeps) {}

  wants(name: string): boolean {
    return this.deps.names.has(name);
  }

  /** The call's options (context and progress), or undefined for a tool that takes none. */
  async optionsFor(call: ToolCall): Promise<ToolCallOptions | undefined> {
    if (!this.wants(call.name)) return undefined;
    const { emit } = this.deps;
    const base = { type: "task" as const, id: call.id, ...taskArgs(call) };
    emit({ ...base, phase: "start" });
    return {
      context: await this.deps.context(),
      onProgress: (p) => {
        const parsed = TaskProgress.safeParse(p);
        if (!parsed.success) return;
        const { session_id, tool } = parsed.data;
        emit({
          ...base,
          phase: "progress",
          ...(session_id ? { session_id } : {}),
          ...(tool ? { tool } : {}),
        });
      },
    };
  }

  finished(call: ToolCall, result: ToolResult, ms: number): void {
    if (!this.wants(call.name)) return;
    this.deps.emit({
      type: "task",
      id: call.id,
      ...taskArgs(call),
      phase: "end",
      is_error: result.is_error,
      ...(result.usage ? { usage: result.usage } : {}),
      duration_ms: Math.round(ms),
    });
  }
}
