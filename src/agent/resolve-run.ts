// Step 1 of assembling a run: everything decided from flags, environment and config_dir before any process
// starts or any session is created — the workspace, the session to resume, the provider and model, the
// API key, the manifest. Every user mistake surfaces here as one clear line, so a refused run creates
// nothing.
import { loadConfig } from "../config/load.ts";
import { checkModuleConfigs } from "../config/module-configs.ts";
import { checkDirs, configDir, dataDir, refuseBadDirs } from "../config/paths.ts";
import { checkReserve } from "../config/reserve.ts";
import type { CheckpointsPolicy } from "../contract/checkpoints.ts";
import { UserError } from "../contract/errors.ts";
import type { Manifest } from "../contract/manifest.ts";
import { loadCheckpointsPolicy } from "../lib/checkpoints-file.ts";
import { generateManifest } from "../manifest/generate.ts";
import { loadManifestFile } from "../manifest/load.ts";
import { withSteering } from "../manifest/steering.ts";
import { resolveApiKey } from "../provider/credentials.ts";
import { type ResolvedModel, resolveModel } from "../provider/models.ts";
import { credentialEnv } from "../runtime/credential-handoff.ts";
import { Session } from "../session/session.ts";
import { type ResolvedTarget, type RunFlags, resolveTarget, resolveWorkspace } from "./options.ts";
import { resumedWorkspace } from "./resume-workspace.ts";

export interface ResolveOptions extends RunFlags {
  profile?: string;
  manifest?: string;
  continue?: boolean;
  resume?: string;
  /** console only: the steering queue file; injects the steering module with `--queue PATH` */
  steeringQueue?: string;
  /** sessions must already exist (i compact) */
  requireExisting?: boolean;
  /** i compact: a missing API key is an error only when a model request is made */
  keyOnlyWhenRequested?: boolean;
}

export interface RunPlan {
  workspace: string;
  /** why the workspace differs from the one asked for, when a resumed session's is used */
  workspaceNotice?: string;
  configDir: string;
  config: ReturnType<typeof loadConfig>;
  /** the session to resume (-r, -c, i compact); undefined: a new one is created */
  existing?: Session;
  target: ResolvedTarget;
  model: ResolvedModel;
  /** the key, or (i compact) the error to give if a model request is made without one */
  apiKey: string | UserError;
  manifest: Manifest;
  /** config_dir/checkpoints.json: what the workspace checkpoints record */
  checkpoints: CheckpointsPolicy;
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

function buildManifest(opts: ResolveOptions, cfgDir: string, cfg: ReturnType<typeof loadConfig>): Manifest {
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

function apiKeyFor(
  opts: ResolveOptions,
  target: ResolvedTarget,
  cfgDir: string,
  cfg: ReturnType<typeof loadConfig>,
): string | UserError {
  try {
    return resolveApiKey(target.provider, cfgDir, credentialEnv(), target.baseUrl, cfg.config);
  } catch (err) {
    if (!(opts.keyOnlyWhenRequested && err instanceof UserError)) throw err;
    return err;
  }
}

export function resolveRun(opts: ResolveOptions): RunPlan {
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
  const apiKey = apiKeyFor(opts, target, cfgDir, cfg);
  const manifest = buildManifest(opts, cfgDir, cfg);
  checkModuleConfigs(manifest, cfgDir);
  const checkpoints = loadCheckpointsPolicy(cfgDir);
  // After every config check (a run refused for its config creates nothing), before a worker or the
  // session needs the directories.
  checkDirs();
  return {
    workspace,
    ...(resumedIn?.notice ? { workspaceNotice: resumedIn.notice } : {}),
    configDir: cfgDir,
    config: cfg,
    ...(existing ? { existing } : {}),
    target,
    model,
    apiKey,
    manifest,
    checkpoints,
  };
}
