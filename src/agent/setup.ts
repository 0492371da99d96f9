// Assembles one agent run from flags, environment and config_dir: workspace, model, provider, manifest,
// worker host, session, compaction controller. Every user mistake surfaces here as one clear line.

import { CompactionController } from "../compaction/controller.ts";
import { loadConfig } from "../config/load.ts";
import { checkModuleConfigs } from "../config/module-configs.ts";
import { configDir, dataDir } from "../config/paths.ts";
import { checkReserve } from "../config/reserve.ts";
import type { ProviderName } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import type { Manifest } from "../contract/manifest.ts";
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
import { coreToolDecls } from "../tools/index.ts";
import type { SandboxSpec } from "../tools/sandbox.ts";
import type { ApprovalPolicy } from "../tools/types.ts";
import { WorkerHost } from "../worker/host.ts";
import { Agent } from "./loop.ts";
import { type RunFlags, resolveTarget, resolveWorkspace } from "./options.ts";
import { resultTokenCap, shortenOversizedResults } from "./result-cap.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export interface SetupOptions extends RunFlags {
  profile?: string;
  manifest?: string;
  continue?: boolean;
  resume?: string;
  approve: ApprovalPolicy;
  ask?: (question: string) => Promise<boolean>;
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
  /** the model's list price per million tokens, when known */
  price?: { input: number; output: number };
  close(): Promise<void>;
}

/** The saved session a resume names (-r ID, -c, `i compact`), or undefined for a new run. */
function existingSession(opts: SetupOptions, workspace: string): Session | undefined {
  const dir = dataDir();
  if (opts.resume) return Session.open(dir, opts.resume);
  if (!opts.continue && !opts.requireExisting) return undefined;
  const s = Session.newest(dir, workspace);
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
  const workspace = resolveWorkspace(opts.workspace);
  const cfgDir = configDir();
  const cfg = loadConfig(cfgDir);
  const existing = existingSession(opts, workspace);
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
  // The host starts no process until a hook runs. The Responses provider takes it for its wire hooks and
  // refuses a manifest without them here, before any session is opened or HTTP sent.
  const host = new WorkerHost(manifest, { workspace, configDir: cfgDir });
  let provider: Provider;
  try {
    provider = createProvider({
      provider: target.provider,
      apiKey: typeof apiKey === "string" ? apiKey : NO_KEY,
      ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
      hooks: host,
    });
    if (typeof apiKey !== "string") provider = keylessProvider(target.provider, apiKey);
  } catch (err) {
    await host.close();
    throw err;
  }
  const resumed = existing !== undefined;
  const session =
    existing ??
    Session.create({ dataDir: dataDir(), workspace, provider: target.provider, model: model.name });
  const unlock = lockSession(session.dir, session.id);
  const close = async () => {
    await host.close();
    unlock();
  };
  try {
    const core = coreToolDecls();
    const tools = [...core, ...host.toolDecls()];
    const resultCap = resultTokenCap(model);
    let history: History = session.history();
    // A result too big for this model (saved by a run with a bigger one, or before the cap) would make
    // every request too large and leave compaction nothing to cut: shorten it; the log keeps it whole.
    const oversized = shortenOversizedResults(history, resultCap);
    if (oversized.shortened > 0) {
      history = oversized.history;
      session.checkpoint(history);
    }
    if (history.length === 0) {
      const system = await buildSystemPrompt(host, {
        workspace,
        model: model.name,
        provider: target.provider,
        tools: tools.map((t) => t.name),
      });
      history = [{ role: "system", content: system }];
    }
    opts.emit({ type: "session", id: session.id, resumed, workspace });
    if (oversized.shortened > 0)
      opts.emit({
        type: "notice",
        level: "warn",
        message: `shortened ${oversized.shortened} tool result(s) too large for ${model.name}'s context window; the full output stays in the session (i sessions --recover ${session.id})`,
      });
    const controller = new CompactionController({
      hooks: host,
      provider,
      model,
      policy: {
        trigger_ratio: cfg.budget.trigger_ratio ?? 0.85,
        rearm_ratio: cfg.budget.rearm_ratio ?? 0.7,
        ...(cfg.budget.reserve_tokens !== undefined ? { reserve_tokens: cfg.budget.reserve_tokens } : {}),
      },
      workspace,
      session,
      emit: opts.emit,
      manifest,
    });
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
        toolContext: {
          workspace,
          approve: opts.approve,
          ...(opts.ask ? { ask: opts.ask } : {}),
          ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
        },
        emit: opts.emit,
        maxTurns: opts.maxTurns,
        resultTokenCap: resultCap,
      },
      history,
    );
    return {
      agent,
      session,
      host,
      manifest,
      workspace,
      model: model.name,
      provider: target.provider,
      ...(model.price ? { price: model.price } : {}),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
