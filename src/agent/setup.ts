// Assembles one agent run from flags, environment and config_dir, in three steps that each stand alone:
// resolve the run (resolve-run.ts: every user mistake surfaces there as one clear line, before anything
// starts) → open the session (open-session.ts) → build the agent (build-agent.ts). Between them, the
// worker host and the provider are started, and a new session's system prompt is built.

import type { ProviderName } from "../contract/config.ts";
import type { UserError } from "../contract/errors.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { McpServer } from "../contract/mcp.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { NO_KEY } from "../provider/credentials.ts";
import { createProvider } from "../provider/index.ts";
import { listProviderModels } from "../provider/model-list.ts";
import type { Provider } from "../provider/types.ts";
import type { Checkpointer } from "../safety/checkpointer.ts";
import type { Session } from "../session/session.ts";
import type { Approvals } from "../tools/approvals.ts";
import { DeclaredTools } from "../tools/declared-tools.ts";
import { coreToolDecls } from "../tools/index.ts";
import type { ToolContext } from "../tools/types.ts";
import type { RuntimeRefresh, WorkerHost } from "../worker/host.ts";
import { type BuildOptions, buildAgent, withProjectInstructions } from "./build-agent.ts";
import { dropPrestarted, type Prestarted, prestartedHost, runWorkerHost } from "./child-prestart.ts";
import { DEFAULT_IDLE_SECONDS, IdleNotification } from "./idle-notification.ts";
import type { Agent } from "./loop.ts";
import { openRunSession, startingHistory } from "./open-session.ts";
import { gatherEnvironment } from "./prompt-environment.ts";
import { type ResolveOptions, type RunPlan, resolveRun } from "./resolve-run.ts";
import { resultTokenCap } from "./result-cap.ts";
import { mcpSetup, type Refresher, runtimeToolsRefresher } from "./runtime-tools.ts";
import { probeSteering } from "./steering-probe.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import { type ChildSetup, childSystemPrompt, childTools, taskSetup } from "./task-setup.ts";
import { checkHooksConfig, userHooksFor } from "./user-hooks-setup.ts";

export interface SetupOptions extends ResolveOptions, BuildOptions {
  /** this run is a child task's session (`i task-child`) */
  child?: ChildSetup;
  /** the user said no to this workspace's own files at the console's question: not warned about again */
  declinedProjectFiles?: boolean;
  /** MCP servers an ACP client offered for this session (trusted: the user configured them there) */
  mcpServers?: Record<string, McpServer>;
  /** the first request's workers, started ahead by a new print run (child-prestart.ts) */
  prestarted?: Prestarted;
}

export interface AgentRuntime {
  agent: Agent;
  session: Session;
  host: WorkerHost;
  manifest: Manifest;
  workspace: string;
  /** the model and provider this run talks to (the console's status line shows them) */
  model: string;
  provider: string;
  /** the endpoint this run talks to, when not the provider's default */
  baseUrl?: string;
  approvals: Approvals;
  /** what the tools run with (the console's `!command` uses it too) */
  toolContext: Omit<ToolContext, "signal">;
  /** the model's list price per million tokens, when known */
  price?: { input: number; output: number };
  /** workspace checkpoints of this session (/undo, /rewind) */
  checkpoints: Checkpointer;
  /** what each module declaring tools at run time said of its groups (MCP servers), freshly asked */
  runtimeStatus?: () => Promise<RuntimeRefresh["status"]>;
  /** prompts the modules offer (MCP prompts: the console's slash commands) */
  runtimePrompts?: Pick<Refresher, "prompts" | "expandPrompt">;
  /** resources the modules offer (MCP resources: `@SERVER:URI` mentions) */
  runtimeResources?: Refresher["resources"];
  /** the models the provider lists (GET /models), [] when it does not answer */
  listModels(): Promise<string[]>;
  /** the console's prompt waits for the user's input (true) or a message was sent (false) */
  waitingForInput(waiting: boolean): void;
  close(): Promise<void>;
}

/**
 * A provider that fails its first request with `err`: `i compact` with a local compactor makes no model
 * request, so a missing key is an error only if one is actually needed.
 */
function keylessProvider(name: ProviderName, err: UserError): Provider {
  return { name, stream: () => Promise.reject(err) };
}

/** The provider for the plan. The Responses provider takes the host for its wire hooks and refuses a
 * manifest without them here, before any session is opened or HTTP sent. */
function startProvider(plan: RunPlan, host: WorkerHost): Provider {
  const { target, apiKey, config } = plan;
  const provider = createProvider({
    provider: target.provider,
    apiKey: typeof apiKey === "string" ? apiKey : NO_KEY,
    ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
    ...(config.config.stream_idle_timeout_ms !== undefined
      ? { idleTimeoutMs: config.config.stream_idle_timeout_ms }
      : {}),
    hooks: host,
    cloud: config.config,
  });
  return typeof apiKey === "string" ? provider : keylessProvider(target.provider, apiKey);
}

/** Run `step`; if it throws, `host` is closed first (no worker outlives a run that failed to start). */
async function orClose<T>(host: WorkerHost, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await host.close();
    throw err;
  }
}

/** The run's plan, its hooks.json check and its MCP setup; workers started ahead stop if any refuses. */
async function planRun(opts: SetupOptions, early: Prestarted | undefined) {
  try {
    const plan = resolveRun(opts);
    // hooks.json is checked before anything starts; a project file not accepted is named once the session is.
    const ignoredHooks = checkHooksConfig(plan.manifest, plan.configDir, plan.workspace);
    // MCP servers are configured for the mcp module through its environment (the accepted project file
    // included).
    const mcp = mcpSetup(plan.manifest, plan.configDir, plan.workspace, opts.mcpServers);
    return { plan, ignoredHooks, mcp };
  } catch (err) {
    await dropPrestarted(early);
    throw err;
  }
}

export async function setupAgent(opts: SetupOptions): Promise<AgentRuntime> {
  startupMark("setup");
  const early = opts.child?.prestarted ?? opts.prestarted;
  const { plan, ignoredHooks, mcp } = await planRun(opts, early);
  const { workspace, model, target } = plan;
  // The host starts no process until a hook runs, unless its first request's workers were started ahead
  // for this very manifest; core tool names are never a module's.
  const host =
    prestartedHost(early, plan.manifest, workspace, mcp.env) ??
    runWorkerHost(plan.manifest, plan.configDir, workspace, mcp.env);
  const provider = await orClose(host, () => startProvider(plan, host));
  const core = coreToolDecls(model.edit_tool);
  const maxParallel = plan.config.config.tasks?.max_parallel;
  const tasks = taskSetup(plan.manifest, plan.configDir, workspace, {
    ...(opts.child ? { child: opts.child } : {}),
    ...(maxParallel ? { maxParallelTasks: maxParallel } : {}),
  });
  const tools = childTools(tasks.describe([...core, ...host.toolDecls()]), opts.child);
  const nestedInstructions = withProjectInstructions(plan.manifest);
  const buildPrompt = async () => {
    // The workers of the system_prompt hook start now, while git status runs (gatherEnvironment), not
    // after it; a start that fails is reported by the hook's own request.
    const warm = (plan.manifest.hooks.system_prompt ?? []).map((r) => r.module);
    if (warm.length > 0) host.start(warm).catch(() => {});
    return childSystemPrompt(
      await buildSystemPrompt(
        host,
        { workspace, model: model.name, provider: target.provider, tools: tools.map((t) => t.name) },
        await gatherEnvironment(workspace, opts.approve, opts.sandbox, { nestedInstructions }),
      ),
      opts.child,
    );
  };
  // A new session's system prompt waits for its workers to start: the session is created on disk
  // meanwhile. A failing system_prompt hook is that worker's error, and closing the session, still empty,
  // removes it: no half-made session is left behind (every saved session stays loadable).
  const prompt = plan.existing ? undefined : buildPrompt();
  prompt?.catch(() => {});
  // A session in use (or any refusal here) stops the workers started so far.
  const opened = await orClose(host, () => openRunSession(plan, opts.child?.parent));
  const { session } = opened;
  startupMark("session created");
  let idle: IdleNotification | undefined;
  const close = () =>
    opened.close(() => {
      idle?.stop();
      tasks.close();
      return host.close();
    });
  try {
    const system = await prompt;
    startupMark("system prompt built");
    // The console's steering worker is asked once, on the empty queue, before the first message: one that
    // cannot start or answer refuses the console here rather than losing the first message later.
    const queue = opts.steeringQueue;
    if (queue) await probeSteering(host, plan.manifest, queue);
    const resultCap = resultTokenCap(model);
    const history = await startingHistory(
      opened,
      plan,
      resultCap,
      async () => system ?? (await buildPrompt()),
      opts.emit,
      opts.approve,
    );
    const untrusted = opts.declinedProjectFiles ? [] : [...mcp.notices, ignoredHooks, tasks.notice()];
    for (const line of untrusted) if (line) opts.emit({ type: "notice", level: "warn", message: line });
    // Modules that declare tools at run time (mcp) start now, in the background, and are asked for their
    // tools before each model request.
    const declaredTools = new DeclaredTools();
    const refreshTools = runtimeToolsRefresher(
      host,
      declaredTools,
      opts.approve,
      opts.emit,
      model.images !== "omit",
      mcp.idle ? ["mcp"] : [],
    );
    const userHooks = userHooksFor(host, session.id, opts.emit, plan.configDir);
    // The agent is built below; its tool batches ask it for the model and give it a task's token use.
    let agent: Agent | undefined;
    const built = buildAgent(
      plan,
      {
        host,
        provider,
        session,
        history,
        tools,
        coreToolNames: new Set(core.map((t) => t.name)),
        resultTokenCap: resultCap,
        ...(refreshTools ? { runtimeTools: { refresh: refreshTools.refresh, declared: declaredTools } } : {}),
        ...(userHooks ? { userHooks } : {}),
        ...(opts.child ? { subagent: true } : {}),
        toolBatch: tasks.batchDeps({
          sessionId: session.id,
          workspace,
          provider: target.provider,
          model: () => agent?.model.name ?? model.name,
          ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
          approve: opts.approve,
          ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
          ...(opts.allowDestructive ? { allowDestructive: true } : {}),
          tools: tools.map((t) => t.name),
          emit: opts.emit,
          onUsage: (u) => agent?.addUsage(u),
          ...(opts.child ? { allowed: new Set(tools.map((t) => t.name)) } : {}),
        }),
      },
      opts,
    );
    agent = built.agent;
    if (userHooks) {
      const seconds = plan.config.config.notifications?.idle_seconds ?? DEFAULT_IDLE_SECONDS;
      idle = new IdleNotification(seconds * 1000, (m) => userHooks.notification(m));
      agent.addSessionContext(await userHooks.sessionStart(opened.resumed ? "resume" : "startup"));
    }
    return {
      agent: built.agent,
      session,
      host,
      manifest: plan.manifest,
      workspace,
      model: model.name,
      provider: target.provider,
      ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
      approvals: built.approvals,
      toolContext: built.toolContext,
      ...(model.price ? { price: model.price } : {}),
      checkpoints: built.checkpoints,
      ...(refreshTools
        ? {
            runtimeStatus: refreshTools.status,
            runtimePrompts: refreshTools,
            runtimeResources: refreshTools.resources,
          }
        : {}),
      listModels: () =>
        typeof plan.apiKey === "string"
          ? listProviderModels({
              provider: target.provider,
              apiKey: plan.apiKey,
              ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
            })
          : Promise.resolve([]),
      waitingForInput: (waiting) => idle?.waiting(waiting),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
