// Module tools as the dispatch sees them: fixed declarations from the workers (checked against the module
// registry at hello), answered by the worker that owns them. One that may change files (`task`: its child
// session edits the workspace) says so in the registry, so the turn's checkpoint is taken before it runs. A tool that must know its session (the `task` tool) gets its context with the call,
// reports progress, is told of a cancel, and may report its own token use.
import { moduleToolMayChange } from "../contract/registry.ts";
import type { Usage } from "../contract/usage.ts";
import type { ToolAdapter } from "./dispatch.ts";
import { externalDispatchTool } from "./external-tool.ts";
import type { ToolDecl, ToolResult } from "./types.ts";

/** What a call of a tool that must know its session is given (the worker host's ToolCallOptions). */
export interface ToolCallOptions {
  context?: Record<string, unknown>;
  onProgress?: (progress: Record<string, unknown>) => void;
}

/** What the dispatch needs of the worker runtime (the WorkerHost is one). */
export interface ModuleTools {
  toolDecls(): ToolDecl[];
  callTool(name: string, args: unknown, callId: string, opts?: ToolCallOptions): Promise<ToolResult>;
  /** tell the worker a call in flight was cancelled, so it stops the work */
  cancelTool?(name: string, callId: string): void;
}

/** The session side of module tools that take a context (SessionTools). */
export interface SessionToolCalls {
  optionsFor(call: { id: string; name: string; arguments: string }): Promise<ToolCallOptions | undefined>;
  finished(call: { id: string; name: string; arguments: string }, result: ToolResult, ms: number): void;
}

export interface ModuleToolExtras {
  session?: SessionToolCalls;
  onUsage?: (usage: Usage) => void;
}

async function callModule(
  host: ModuleTools,
  name: string,
  args: unknown,
  callId: string,
  signal: AbortSignal,
  extras: ModuleToolExtras,
): Promise<ToolResult> {
  const call = { id: callId, name, arguments: JSON.stringify(args ?? {}) };
  const started = performance.now();
  const opts = await extras.session?.optionsFor(call);
  const cancel = () => host.cancelTool?.(name, callId);
  signal.addEventListener("abort", cancel, { once: true });
  let result: ToolResult = { content: `cancelled by the user while ${name} ran`, is_error: true };
  try {
    result = await host.callTool(name, args, callId, opts);
    if (result.usage) extras.onUsage?.(result.usage);
    return result;
  } catch (err) {
    result = { content: `tool ${name} failed: ${(err as Error).message}`, is_error: true };
    throw err;
  } finally {
    signal.removeEventListener("abort", cancel);
    if (opts)
      extras.session?.finished(
        call,
        signal.aborted ? { content: "cancelled", is_error: true } : result,
        performance.now() - started,
      );
  }
}

export function moduleToolAdapter(host: ModuleTools, extras: ModuleToolExtras = {}): ToolAdapter {
  return {
    tools: () =>
      host.toolDecls().map((d) =>
        externalDispatchTool(d, {
          kind: "module",
          owner: "module",
          mayChange: moduleToolMayChange(d.name),
          call: (args, callId, signal) => callModule(host, d.name, args, callId, signal, extras),
        }),
      ),
  };
}
