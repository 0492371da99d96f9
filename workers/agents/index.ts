// The agents module: the `task` tool hands a self-contained task to a child `i` session (child.ts) running
// one of the agent definitions (config_dir/agents, an accepted .i/agents, or the built-in general and
// explore). The child gets the tools its definition names, never one its parent lacks, and never `task`
// itself (no grandchildren); its final answer is the tool result.
import { describeIssue } from "../../src/contract/errors.ts";
import { TASK_DESCRIPTION } from "../../src/contract/registry.ts";
import { type AgentDefinition, type ChildSpec, TaskContext } from "../../src/contract/tasks.ts";
import { loadAgents, taskDescription } from "../../src/lib/agent-definitions.ts";
import { defineWorkerModule, toolError, type WorkerContext } from "../sdk/module.ts";
import { defineTool, registryToolDecl } from "../sdk/tool.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { runChild, stopAllChildren } from "./child.ts";

/** The child's tools: its definition's (matched case-insensitively, so Claude Code's `Read, Grep` work). */
function childTools(def: AgentDefinition, parent: readonly string[]): string[] | string {
  const offered = parent.filter((t) => t !== "task");
  if (!def.tools) return offered;
  const out: string[] = [];
  for (const want of def.tools) {
    const hit = offered.find((t) => t.toLowerCase() === want.toLowerCase());
    if (!hit)
      return `agent "${def.name}" (${def.source}): field tools: "${want}" is not a tool this session has; available: ${offered.join(", ")}`;
    out.push(hit);
  }
  return out;
}

export function createAgentsModule() {
  const agentsFor = (ctx: WorkerContext) => loadAgents(workerConfigDir(), ctx.workspace);
  const decl = registryToolDecl("agents", "task");
  const tool = defineTool("agents", "task", async (args, ctx) => {
    const parsedContext = TaskContext.safeParse(ctx.context);
    if (!parsedContext.success)
      return toolError(describeIssue("task: the core sent no usable session context", parsedContext.error));
    const context = parsedContext.data;
    const { agents, problems } = agentsFor(ctx);
    const name = args.agent ?? "general";
    const def = agents.find((a) => a.name.toLowerCase() === name.toLowerCase());
    if (!def) {
      const bad = problems.find((p) => p.includes(`${name}.md`));
      return toolError(
        bad ?? `task: unknown agent "${name}"; available agents: ${agents.map((a) => a.name).join(", ")}`,
      );
    }
    const tools = childTools(def, context.tools);
    if (typeof tools === "string") return toolError(tools);
    const spec: ChildSpec = {
      prompt: args.prompt,
      description: args.description,
      call_id: ctx.callId,
      agent: { ...def, tools },
      context,
    };
    return runChild({
      spec,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onProgress: (p) => ctx.progress?.(p),
      log: ctx.log,
    });
  });
  return defineWorkerModule({
    name: "agents",
    hooks: {},
    get tools() {
      return [tool];
    },
    // The description lists the agents found when the worker started (the registry's text is the base).
    check: (ctx) => {
      const { agents } = agentsFor(ctx);
      tool.decl = { ...decl, description: taskDescription(TASK_DESCRIPTION, agents) };
    },
    close: stopAllChildren,
    // A child runs for minutes, several at once, and a `tool_cancel` must reach one while it runs.
    concurrent: true,
  });
}
