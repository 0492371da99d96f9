// What a run needs for sub-agents: the `task` tool's description listing the agents, the parallel calls and
// session context a parent gives its task calls (with the credential broker that hands a child its API
// key), and for a child run (`i task-child`) its narrower tool set and its agent's system prompt.

import type { EmitEvent } from "../contract/events.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { ToolDecl } from "../contract/protocol.ts";
import { TASK_DESCRIPTION, toolSpec } from "../contract/registry.ts";
import { type AgentDefinition, DEFAULT_MAX_PARALLEL_TASKS, type TaskContext } from "../contract/tasks.ts";
import type { Usage } from "../contract/usage.ts";
import { loadAgents, taskDescription } from "../lib/agent-definitions.ts";
import { CredentialBroker } from "../runtime/credential-broker.ts";
import { heldCredentials } from "../runtime/credential-handoff.ts";
import { selfArgv } from "../runtime/runtime.ts";
import { type SandboxSpec, sandboxForChild } from "../tools/sandbox.ts";
import type { ApprovalPolicy } from "../tools/types.ts";
import type { Prestarted } from "./child-prestart.ts";
import { SessionTools } from "./session-tools.ts";
import type { ToolBatchDeps } from "./tool-calls.ts";

/** What a sub-agent's model is told when its call would need the user's approval. */
export const CHILD_CANNOT_ASK =
  "refused: this needs the user's approval, and a sub-agent cannot ask the user (its session runs with --approve ask), so it was not done; do not retry it — finish without it and say in your final answer what needs approval, so the agent that started you can do it or ask";

export interface ChildSetup {
  agent: AgentDefinition;
  parent: { session_id: string; call_id: string; agent: string };
  /** worker processes the child started while it waited for its task (used when the manifest matches) */
  prestarted?: Prestarted;
}

export interface BatchInfo {
  sessionId: string;
  workspace: string;
  provider: string;
  model: () => string;
  baseUrl?: string;
  approve: ApprovalPolicy;
  sandbox?: SandboxSpec;
  /** --allow-destructive, passed on to each child */
  allowDestructive?: boolean;
  tools: string[];
  emit: EmitEvent;
  onUsage: (u: Usage) => void;
  allowed?: ReadonlySet<string>;
}

/** A child's system prompt: the usual one (workspace, project instructions…) and its agent's role. */
export function childSystemPrompt(base: string, child: ChildSetup | undefined): string {
  if (!child) return base;
  return `${base}\n\n# Your role: the "${child.agent.name}" sub-agent\n${child.agent.system_prompt}`;
}

/** A child's tools: what its definition names (already checked against the parent's), never `task`. */
export function childTools(tools: ToolDecl[], child: ChildSetup | undefined): ToolDecl[] {
  if (!child) return tools;
  const names = child.agent.tools;
  return tools.filter((t) => t.name !== "task" && (!names || names.includes(t.name)));
}

export function taskSetup(
  manifest: Manifest,
  configDir: string,
  workspace: string,
  opts: { child?: ChildSetup; maxParallelTasks?: number },
) {
  const specOf = (name: string) => {
    const ref = manifest.tools[name];
    return ref ? toolSpec(ref.module, name) : undefined;
  };
  const names = Object.keys(manifest.tools);
  const parallel = new Set(names.filter((n) => specOf(n)?.parallel));
  const contextual = new Set(opts.child ? [] : names.filter((n) => specOf(n)?.wantsContext));
  let broker: CredentialBroker | undefined;

  return {
    /** The line for a project's agents directory left out because it is not accepted (or undefined). */
    notice(): string | undefined {
      if (manifest.tools.task?.module !== "agents" || opts.child) return undefined;
      const ignored = loadAgents(configDir, workspace).projectIgnored;
      return ignored
        ? `${ignored}: ignored, this project's agents are not accepted for this workspace (or changed since); review them, then run \`i trust\` (or /trust in the console)`
        : undefined;
    },
    /**
     * The built-in agents module's task description lists the agents (as its worker will at hello). A
     * child has no `task` (childTools drops it): its agents are not even read.
     */
    describe(tools: ToolDecl[]): ToolDecl[] {
      const ref = manifest.tools.task;
      if (!ref?.builtin || ref.module !== "agents" || opts.child) return tools;
      const description = taskDescription(TASK_DESCRIPTION, loadAgents(configDir, workspace).agents);
      return tools.map((t) => (t.name === "task" ? { ...t, description } : t));
    },
    batchDeps(info: BatchInfo): NonNullable<import("./loop.ts").AgentDeps["toolBatch"]> {
      const out: Pick<ToolBatchDeps, "allowed" | "parallel" | "sessionTools" | "onUsage"> = {
        onUsage: info.onUsage,
        ...(info.allowed ? { allowed: info.allowed } : {}),
      };
      if (parallel.size > 0)
        out.parallel = { names: parallel, max: opts.maxParallelTasks ?? DEFAULT_MAX_PARALLEL_TASKS };
      if (contextual.size > 0)
        out.sessionTools = new SessionTools({
          names: contextual,
          emit: info.emit,
          context: async (): Promise<TaskContext> => {
            broker ??= new CredentialBroker(heldCredentials);
            return {
              exec: selfArgv(),
              session_id: info.sessionId,
              workspace: info.workspace,
              provider: info.provider,
              model: info.model(),
              ...(info.baseUrl ? { base_url: info.baseUrl } : {}),
              approve: info.approve,
              ...(info.sandbox ? sandboxForChild(info.sandbox) : {}),
              ...(info.allowDestructive ? { allow_destructive: true } : {}),
              tools: info.tools,
              credential: await broker.mint(),
            };
          },
        });
      return out;
    },
    close(): void {
      broker?.close();
    },
  };
}
