// Step 3 of assembling a run: the agent over an opened session — its compaction controller, who approves
// the tools that change things, and what the tools run with.
import { join } from "node:path";
import { compactorIdentity } from "../compaction/compactor-identity.ts";
import { CompactionController } from "../compaction/controller.ts";
import { dataDir } from "../config/paths.ts";
import { DEFAULT_REARM_RATIO, DEFAULT_TRIGGER_RATIO } from "../contract/config.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import { beforeRequestWanted } from "../contract/registry.ts";
import type { Provider } from "../provider/types.ts";
import { Checkpointer } from "../safety/checkpointer.ts";
import type { Session } from "../session/session.ts";
import { Approvals, type AskApproval } from "../tools/approvals.ts";
import type { DeclaredTools } from "../tools/declared-tools.ts";
import type { DispatchSeams } from "../tools/dispatch.ts";
import { FileTimes } from "../tools/file-times.ts";
import { NestedInstructions } from "../tools/nested-instructions.ts";
import type { SandboxSpec } from "../tools/sandbox.ts";
import { SavedOutputs } from "../tools/saved-output.ts";
import type { ApprovalPolicy, CommandTerminal, EditorFiles, ToolContext, ToolDecl } from "../tools/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { guardSetup } from "./guard-setup.ts";
import { Agent, type AgentDeps } from "./loop.ts";
import { chainAfterCall, lspAfterCall } from "./lsp-seam.ts";
import type { RunPlan } from "./resolve-run.ts";
import { CHILD_CANNOT_ASK } from "./task-setup.ts";
import type { UserHooks } from "./user-hooks.ts";

export interface BuildOptions {
  approve: ApprovalPolicy;
  /** the console's approval prompt; without it an approval that would be asked is refused at once */
  ask?: AskApproval;
  /** `--sandbox`: bash runs in it */
  sandbox?: SandboxSpec;
  /** an editor's open files (ACP `fs/*`): the file tools read its buffers and tell it what they wrote */
  editor?: EditorFiles;
  /** an editor's terminals (ACP `terminal/*`): bash runs there unless sandboxed */
  terminal?: CommandTerminal;
  /** `--allow-destructive`: commands the guard flags run without its question */
  allowDestructive?: boolean;
  maxTurns: number;
  emit: EmitEvent;
}

export interface BuiltAgent {
  agent: Agent;
  approvals: Approvals;
  toolContext: Omit<ToolContext, "signal">;
  checkpoints: Checkpointer;
}

/** Whether the run reads project instructions (the prompts module is in its manifest). */
export function withProjectInstructions(manifest: RunPlan["manifest"]): boolean {
  return manifest.modules.some((m) => m.name === "prompts");
}

/** The user's PostToolUse hooks, then the language servers (they see a formatter's changes). */
function afterCallSeam(userHooks: UserHooks | undefined, lsp: DispatchSeams["afterCall"]): DispatchSeams {
  const afterCall = chainAfterCall(userHooks?.seams().afterCall, lsp);
  return afterCall ? { afterCall } : {};
}

export function buildAgent(
  plan: RunPlan,
  parts: {
    host: HookRunner;
    provider: Provider;
    session: Session;
    history: History;
    tools: ToolDecl[];
    coreToolNames: ReadonlySet<string>;
    resultTokenCap: number;
    /** tools declared at run time (MCP): refreshed before each request, answered through the dispatch */
    runtimeTools?: { refresh: () => Promise<void>; declared: DeclaredTools };
    /** the user's hooks (hooks.json) */
    userHooks?: UserHooks;
    /** a child task's agent: SubagentStop hooks, and no one to ask for approvals */
    subagent?: boolean;
    toolBatch?: AgentDeps["toolBatch"];
  },
  opts: BuildOptions,
): BuiltAgent {
  const { userHooks } = parts;
  const { budget } = plan.config;
  const controller = new CompactionController({
    hooks: parts.host,
    provider: parts.provider,
    model: plan.model,
    policy: {
      trigger_ratio: budget.trigger_ratio ?? DEFAULT_TRIGGER_RATIO,
      rearm_ratio: budget.rearm_ratio ?? DEFAULT_REARM_RATIO,
      ...(budget.reserve_tokens !== undefined ? { reserve_tokens: budget.reserve_tokens } : {}),
    },
    workspace: plan.workspace,
    session: parts.session,
    emit: opts.emit,
    manifest: plan.manifest,
    compactor: compactorIdentity(plan.manifest, plan.configDir),
    ...(userHooks ? { beforeCompaction: (r, i) => userHooks.preCompact(r, i) } : {}),
  });
  const ask = opts.ask;
  const guard = guardSetup({
    configDir: plan.configDir,
    workspace: plan.workspace,
    settings: plan.config.config.guard,
    allowDestructive: opts.allowDestructive,
    session: parts.session,
  });
  const approvals = new Approvals({
    rememberGuarded: guard.remember,
    policy: opts.approve,
    // A sub-agent can never ask the user: its parent's policy applies, and what would be asked is refused.
    ...(parts.subagent ? { noOneToAsk: CHILD_CANNOT_ASK } : {}),
    // The user's Notification hooks hear that `i` waits for them.
    ...(ask
      ? {
          ask: userHooks
            ? async (...a: Parameters<AskApproval>) => {
                await userHooks.notification("i needs your permission to go on");
                return ask(...a);
              }
            : ask,
        }
      : {}),
    // Not consola.warn: a warning stays one `i: …` line on stderr, without a badge or a TTY-only icon.
    warn: (line) => process.stderr.write(`i: ${line}\n`),
  });
  const toolContext = {
    workspace: plan.workspace,
    approvals,
    files: new FileTimes(),
    outputs: new SavedOutputs(join(parts.session.dir, "outputs")),
    // Project instructions are the prompts module's: without it, nested ones are not read either.
    ...(withProjectInstructions(plan.manifest)
      ? { instructions: new NestedInstructions(plan.workspace) }
      : {}),
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    ...(opts.editor ? { editor: opts.editor } : {}),
    ...(opts.terminal ? { terminal: opts.terminal } : {}),
    guard: guard.guard,
  };
  const checkpoints = new Checkpointer({
    session: parts.session,
    workspace: plan.workspace,
    policy: plan.checkpoints,
    skip: [dataDir()],
    warn: (message) => opts.emit({ type: "notice", level: "warn", message }),
  });
  const agent: Agent = new Agent(
    {
      provider: parts.provider,
      providerName: plan.target.provider,
      model: plan.model,
      hooks: parts.host,
      session: parts.session,
      controller,
      tools: parts.tools,
      coreToolNames: parts.coreToolNames,
      toolContext,
      emit: opts.emit,
      maxTurns: opts.maxTurns,
      beforeRequest: beforeRequestWanted(plan.manifest.hooks.before_request ?? [], plan.target.provider),
      resultTokenCap: parts.resultTokenCap,
      ...(parts.runtimeTools
        ? { refreshTools: parts.runtimeTools.refresh, declaredTools: parts.runtimeTools.declared }
        : {}),
      ...(userHooks ? { userHooks } : {}),
      // The user's hooks run around every tool call; the workspace is recorded before the first call of a
      // turn that may change files, and after it.
      toolSeams: {
        ...(userHooks ? userHooks.seams() : {}),
        ...afterCallSeam(userHooks, lspAfterCall(parts.host, plan.workspace, opts.emit)),
        beforeFirstChange: async () => {
          if (agent.turnTs) checkpoints.beforeChange(agent.turnTs);
        },
      },
      onTurnEnd: () => checkpoints.afterTurn(),
      ...(parts.subagent ? { subagent: true } : {}),
      ...(parts.toolBatch ? { toolBatch: parts.toolBatch } : {}),
    },
    parts.history,
  );
  return { agent, approvals, toolContext, checkpoints };
}
