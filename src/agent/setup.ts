// Assembles one agent run from flags, environment and config_dir: workspace, model, provider, manifest,
// worker host, session, compaction controller. Every user mistake surfaces here as one clear line.

import { compactorIdentity } from "../compaction/compactor-identity.ts";
import { CompactionController } from "../compaction/controller.ts";
import { loadConfig } from "../config/load.ts";
import { checkModuleConfigs } from "../config/module-configs.ts";
import { checkDirs, configDir, dataDir, refuseBadDirs } from "../config/paths.ts";
import { checkReserve } from "../config/reserve.ts";
import { DEFAULT_REARM_RATIO, DEFAULT_TRIGGER_RATIO, type ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import type { Manifest } from "../contract/manifest.ts";
import { beforeRequestWanted } from "../contract/registry.ts";
import { generateManifest } from "../manifest/generate.ts";
import { loadManifestFile } from "../manifest/load.ts";
import { withSteering } from "../manifest/steering.ts";
import { NO_KEY, resolveApiKey } from "../provider/credentials.ts";
import { createProvider } from "../provider/index.ts";
import { resolveModel } from "../provider/models.ts";
import type { Provider } from "../provider/types.ts";
import { credentialEnv } from "../runtime/credential-handoff.ts";
import { lockSession } from "../session/lock.ts";
import { Session } from "../session/session.ts";
import { Approvals, type AskApproval } from "../tools/approvals.ts";
import { coreToolDecls } from "../tools/index.ts";
import type { SandboxSpec } from "../tools/sandbox.ts";
import type { ApprovalPolicy, ToolContext } from "../tools/types.ts";
import { WorkerHost } from "../worker/host.ts";
import { Agent } from "./loop.ts";
import { type RunFlags, resolveTarget, resolveWorkspace } from "./options.ts";
import { resultTokenCap, shortenOversizedResults } from "./result-cap.ts";
import { resumedWorkspace } from "./resume-workspace.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import {
  CHILD_CANNOT_ASK,
  type ChildSetup,
  childSystemPrompt,
  childTools,
  prestartedHost,
  taskSetup,
} from "./task-setup.ts";
import { checkHooksConfig, userHooksFor } from "./user-hooks-setup.ts";

export interface SetupOptions extends RunFlags {
  profile?: string;
  manifest?: string;
  continue?: boolean;
  resume?: string;
  approve: ApprovalPolicy;
  /** the console's approval prompt; without it an approval that would be asked is refused at once */
  ask?: AskApproval;
  /** `--sandbox`: bash runs in it */
  sandbox?: SandboxSpec;
  maxTurns: number;
  emit: EmitEvent;
  /** console only: the steering queue file; injects the steering module with `--queue PATH` */
  steeringQueue?: string;
  /** sessions must already exist (i compact) */
  requireExisting?: boolean;
  /** i compact: a missing API key is an error only when a model request is made */
  keyOnlyWhenRequested?: boolean;
  /** this run is a child task's session (`i task-child`) */
  child?: ChildSetup;
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
  close(): Promise<void>;
}

function openSession(
  opts: SetupOptions,
  workspace: string,
  target: {
    provider: string;
    model: string;
    baseUrl?: string;
    parent?: { session_id: string; call_id: string; agent: string };
  },
  byId: Session | undefined,
): { session: Session; resumed: boolean } {
  const dir = dataDir();
  if (byId) return { session: byId, resumed: true };
  if (opts.continue || opts.requireExisting) {
    const s = Session.newest(dir, workspace);
    if (!s)
      throw new UserError(
        `no saved session for workspace ${workspace}; start one with \`i -p PROMPT\` or \`i\``,
      );
    return { session: s, resumed: true };
  }
  return { session: Session.create({ dataDir: dir, workspace, ...target }), resumed: false };
}

/** -c and `i compact`: the newest session of this workspace (the error says how to start one). */
function newestSession(workspace: string): Session {
  const s = Session.newest(dataDir(), workspace);
  if (!s)
    throw new UserError(
      `no saved session for workspace ${workspace}; start one with \`i -p PROMPT\` or \`i\``,
    );
  return s;
}

/**
 * A provider that fails its first request with `err`: `i compact` with a local compactor makes no model
 * request, so a missing key is an error only if one is actually needed.
 */
function keylessProvider(name: ProviderName, err: UserError): Provider {
  return { name, stream: () => Promise.reject(err) };
}

function buildManifest(opts: SetupOptions, cfgDir: string, cfg: ReturnType<typeof loadConfig>): Manifest {
  const manifest = opts.manifest
    ? loadManifestFile(opts.manifest)
    : generateManifest({
        ...(opts.profile ? { profile: opts.profile } : {}),
        configDir: cfgDir,
        plugins: cfg.plugins,
        bindings: cfg.bindings,
      });
  return opts.steeringQueue
    ? withSteering(manifest, opts.steeringQueue, { binding: cfg.bindings.steering })
    : manifest;
}

export async function setupAgent(opts: SetupOptions): Promise<AgentRuntime> {
  // Before -r reads the data directory: a file in the way is the setting's fault, not a session's.
  refuseBadDirs();
  // A session resumed by id runs in its own workspace, wherever `i -r` was started.
  const byId = opts.resume ? Session.open(dataDir(), opts.resume) : undefined;
  const resumedIn = byId ? resumedWorkspace(byId, opts.workspace) : undefined;
  const workspace = resumedIn?.workspace ?? resolveWorkspace(opts.workspace);
  const cfgDir = configDir();
  const cfg = loadConfig(cfgDir);
  // A resumed session (-r, -c, i compact) continues with the provider and model it recorded.
  const existing = byId ?? (opts.continue || opts.requireExisting ? newestSession(workspace) : undefined);
  const target = resolveTarget(opts, cfg.config, process.env, existing?.meta);
  const model = resolveModel(target.model, cfg.config);
  checkReserve(cfg.budget, model, cfgDir);
  let apiKey: string | UserError;
  try {
    apiKey = resolveApiKey(target.provider, cfgDir, credentialEnv(), target.baseUrl);
  } catch (err) {
    if (!(opts.keyOnlyWhenRequested && err instanceof UserError)) throw err;
    apiKey = err;
  }
  const manifest = buildManifest(opts, cfgDir, cfg);
  checkModuleConfigs(manifest, cfgDir);
  const ignoredHooks = checkHooksConfig(manifest, cfgDir, workspace);
  // After every config check (a run refused for its config creates nothing), before a worker or the
  // session needs the directories.
  checkDirs();
  // The host starts no process until a hook runs. The Responses provider takes it for its wire hooks and
  // refuses a manifest without them here, before any session is opened or HTTP sent.
  const host =
    prestartedHost(opts.child, manifest, workspace) ??
    new WorkerHost(manifest, { workspace, configDir: cfgDir });
  let provider: Provider;
  try {
    provider = createProvider({
      provider: target.provider,
      apiKey: typeof apiKey === "string" ? apiKey : NO_KEY,
      ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
      ...(cfg.config.stream_idle_timeout_ms !== undefined
        ? { idleTimeoutMs: cfg.config.stream_idle_timeout_ms }
        : {}),
      hooks: host,
    });
    if (typeof apiKey !== "string") provider = keylessProvider(target.provider, apiKey);
  } catch (err) {
    await host.close();
    throw err;
  }
  const core = coreToolDecls();
  const tasks = taskSetup(manifest, cfgDir, workspace, {
    ...(opts.child ? { child: opts.child } : {}),
    ...(cfg.config.tasks?.max_parallel ? { maxParallelTasks: cfg.config.tasks.max_parallel } : {}),
  });
  const tools = childTools(tasks.describe([...core, ...host.toolDecls()]), opts.child);
  const systemPrompt = async () =>
    childSystemPrompt(
      await buildSystemPrompt(host, {
        workspace,
        model: model.name,
        provider: target.provider,
        tools: tools.map((t) => t.name),
      }),
      opts.child,
    );
  // A new session's system prompt is built before the session exists: a failing system_prompt hook is
  // that worker's error and leaves no half-made session behind (every saved session stays loadable).
  let system: string | undefined;
  if (!opts.resume && !opts.continue && !opts.requireExisting) {
    try {
      system = await systemPrompt();
    } catch (err) {
      await host.close();
      throw err;
    }
  }
  const { session, resumed } = openSession(
    opts,
    workspace,
    { ...target, model: model.name, ...(opts.child ? { parent: opts.child.parent } : {}) },
    existing,
  );
  const unlock = lockSession(session.dir, session.id);
  // history.json lags the log during a long run (it is rewritten amortised): bring it up to date when
  // the session closes, and on an exit that skips close (a second Ctrl-C). The log already holds it all,
  // so a failure here loses nothing and must not hide the run's own outcome.
  const flush = () => {
    try {
      session.flush();
    } catch {}
  };
  process.on("exit", flush);
  const close = async () => {
    process.off("exit", flush);
    tasks.close();
    try {
      flush();
      await host.close();
    } finally {
      // A session this run created and never wrote to is no session: leave nothing behind. Still under
      // its lock, so no other process is resuming it; a failure only leaves it on disk (it is not listed).
      if (!resumed) {
        try {
          session.removeIfEmpty();
        } catch {}
      }
      unlock();
    }
  };
  try {
    const resultCap = resultTokenCap(model);
    let history: History = session.history();
    // A result too big for this model (saved by a run with a bigger one, or before the cap) would make
    // every request too large and leave compaction nothing to cut: shorten it; the log keeps it whole.
    const oversized = shortenOversizedResults(history, resultCap);
    if (oversized.shortened > 0) {
      history = oversized.history;
      session.checkpoint(history);
    }
    if (history.length === 0) history = [{ role: "system", content: system ?? (await systemPrompt()) }];
    opts.emit({ type: "session", id: session.id, resumed, workspace });
    if (ignoredHooks) opts.emit({ type: "notice", level: "warn", message: ignoredHooks });
    const ignoredAgents = tasks.notice();
    if (ignoredAgents) opts.emit({ type: "notice", level: "warn", message: ignoredAgents });
    const userHooks = userHooksFor(host, session.id, opts.emit);
    if (oversized.shortened > 0)
      opts.emit({
        type: "notice",
        level: "warn",
        message: `shortened ${oversized.shortened} tool result(s) too large for ${model.name}'s context window; the full output stays in the session (i sessions --recover ${session.id})`,
      });
    if (resumedIn?.notice) opts.emit({ type: "notice", level: "warn", message: resumedIn.notice });
    // The compaction pipeline sends its summary request without a signal of its own: it gets the running
    // turn's, so cancelling a turn (or /compact) also stops a summary in flight.
    const turnSignal: { current?: AbortSignal } = {};
    const summaryProvider: typeof provider = {
      name: provider.name,
      stream: (req, onEvent) =>
        provider.stream(
          req.signal || !turnSignal.current ? req : { ...req, signal: turnSignal.current },
          onEvent,
        ),
    };
    const controller = new CompactionController({
      hooks: host,
      provider: summaryProvider,
      model,
      policy: {
        trigger_ratio: cfg.budget.trigger_ratio ?? DEFAULT_TRIGGER_RATIO,
        rearm_ratio: cfg.budget.rearm_ratio ?? DEFAULT_REARM_RATIO,
        ...(cfg.budget.reserve_tokens !== undefined ? { reserve_tokens: cfg.budget.reserve_tokens } : {}),
      },
      workspace,
      session,
      emit: opts.emit,
      manifest,
      turnSignal,
      ...(userHooks ? { beforeCompaction: (r, i) => userHooks.preCompact(r, i) } : {}),
      compactor: compactorIdentity(manifest, cfgDir),
    });
    const ask = opts.ask;
    const approvals = new Approvals({
      policy: opts.approve,
      // A sub-agent can never ask the user: its parent's policy applies, and what would be asked is refused.
      ...(opts.child ? { noOneToAsk: CHILD_CANNOT_ASK } : {}),
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
    const toolContext = { workspace, approvals, ...(opts.sandbox ? { sandbox: opts.sandbox } : {}) };
    const agent = new Agent(
      {
        provider,
        providerName: target.provider,
        model,
        hooks: host,
        session,
        controller,
        tools,
        coreToolNames: new Set(core.map((t) => t.name)),
        toolContext,
        emit: opts.emit,
        maxTurns: opts.maxTurns,
        beforeRequest: beforeRequestWanted(manifest.hooks.before_request ?? [], target.provider),
        turnSignal,
        resultTokenCap: resultCap,
        ...(userHooks ? { userHooks, toolSeams: userHooks.seams() } : {}),
        ...(opts.child ? { subagent: true } : {}),
        toolBatch: tasks.batchDeps({
          sessionId: session.id,
          workspace,
          provider: target.provider,
          model: () => agent.model.name,
          ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
          approve: opts.approve,
          ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
          tools: tools.map((t) => t.name),
          emit: opts.emit,
          onUsage: (u) => agent.addUsage(u),
          ...(opts.child ? { allowed: new Set(tools.map((t) => t.name)) } : {}),
        }),
      },
      history,
    );
    if (userHooks) agent.addSessionContext(await userHooks.sessionStart(resumed ? "resume" : "startup"));
    return {
      agent,
      session,
      host,
      manifest,
      workspace,
      model: model.name,
      provider: target.provider,
      ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
      approvals,
      toolContext,
      ...(model.price ? { price: model.price } : {}),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
