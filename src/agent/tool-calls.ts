// The tools of an agent run: the core tools it offers and the manifest's module tools (and tools declared
// at run time, when the run has any), all through the one tool dispatch.
import type { EmitEvent } from "../contract/events.ts";
import type { Message, ToolCall } from "../contract/history.ts";
import type { Usage } from "../contract/usage.ts";
import { coreToolAdapter } from "../tools/core-adapter.ts";
import type { DeclaredTools } from "../tools/declared-tools.ts";
import { type DispatchSeams, ToolDispatch } from "../tools/dispatch.ts";
import { CORE_TOOLS } from "../tools/index.ts";
import { type ModuleTools, moduleToolAdapter } from "../tools/module-adapter.ts";
import type { ToolContext } from "../tools/types.ts";
import type { SessionTools } from "./session-tools.ts";

export { MODULE_OUTPUT_MAX_CHARS } from "../tools/output-cap.ts";

export interface ToolBatchDeps {
  hooks: ModuleTools;
  coreNames: ReadonlySet<string>;
  ctx: Omit<ToolContext, "report">;
  emit: EmitEvent;
  /** estimated tokens one result may take (a share of the model's window); unbounded when absent */
  resultTokenCap?: number;
  declared?: DeclaredTools;
  seams?: DispatchSeams;
  /** the tools offered to the model: a call to any other is refused (a child agent's narrower set) */
  allowed?: ReadonlySet<string>;
  /** tools whose calls in one message may run at once, and how many at a time */
  parallel?: { names: ReadonlySet<string>; max: number };
  /** module tools that are told about their session, and hear of a cancel (the `task` tool) */
  sessionTools?: SessionTools;
  /** token use a tool reports for itself (a child task's), for the session's totals */
  onUsage?: (usage: Usage) => void;
}

/** The dispatch for a run: core tools named in `coreNames`, then module tools, then declared ones. */
export function agentDispatch(
  deps: Omit<ToolBatchDeps, "ctx"> & { ctx: Omit<ToolContext, "signal" | "report"> },
) {
  const core = CORE_TOOLS.filter((t) => deps.coreNames.has(t.name));
  return new ToolDispatch({
    adapters: [
      coreToolAdapter(core),
      moduleToolAdapter(deps.hooks, {
        ...(deps.sessionTools ? { session: deps.sessionTools } : {}),
        ...(deps.onUsage ? { onUsage: deps.onUsage } : {}),
      }),
      ...(deps.declared ? [deps.declared] : []),
    ],
    ctx: deps.ctx,
    emit: deps.emit,
    ...(deps.resultTokenCap !== undefined ? { resultTokenCap: deps.resultTokenCap } : {}),
    ...(deps.seams ? { seams: deps.seams } : {}),
    ...(deps.allowed ? { allowed: deps.allowed } : {}),
    ...(deps.parallel ? { parallel: deps.parallel } : {}),
  });
}

/** Results for every call of `calls` (one batch, a turn of its own). */
export function runToolBatch(calls: ToolCall[], deps: ToolBatchDeps): Promise<Message[]> {
  const { signal, ...ctx } = deps.ctx;
  return agentDispatch({ ...deps, ctx })
    .turn(signal)
    .runBatch(calls);
}
