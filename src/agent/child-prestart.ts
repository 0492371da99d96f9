// The worker host of a run, and a head start on it. A run's first model request waits for the worker
// processes its hooks need; they start before the rest of the setup code is loaded, from the manifest
// setup will generate (same config_dir, same workspace, same profile), built into a host exactly as setup
// builds one: `i task-child` starts them before it even has its task, a new print run before it loads the
// agent. Only those processes: the modules with hooks (the system prompt, SessionStart, UserPromptSubmit,
// the budget and the request hints run before the first request) and the MCP module when servers are
// configured (its tools are listed in that request). A module serving only tools (the agents module, whose
// `task` a child never has; a bound tool-only module), or whose hooks all follow a tool call (the
// contract's hook table says which: the language servers' sync), starts when first asked, as in any run.
// Setup takes the host only when its own manifest, workspace and MCP env are the same, and only once.
import { loadConfig } from "../config/load.ts";
import { configDir } from "../config/paths.ts";
import { mayPrecedeFirstRequest } from "../contract/hooks.ts";
import type { Manifest } from "../contract/manifest.ts";
import { CORE_TOOL_NAMES, MODULES, type ModuleName } from "../contract/registry.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { generateManifest } from "../manifest/generate.ts";
import { WorkerHost } from "../worker/host.ts";
import { resolveWorkspace } from "./options.ts";
import { mcpSetup } from "./runtime-tools.ts";

/** A host whose first-request workers a child started while it waited for its task. */
export interface Prestarted {
  manifest: Manifest;
  workspace: string;
  mcpEnv: Record<string, string>;
  host: WorkerHost;
  /** setup took the host (or closed it): it is never handed out twice */
  taken?: boolean;
}

/** The worker host of a run: core tool names are never a module's; the mcp module gets its servers' env. */
export function runWorkerHost(
  manifest: Manifest,
  cfgDir: string,
  workspace: string,
  mcpEnv: Record<string, string>,
): WorkerHost {
  return new WorkerHost(manifest, {
    workspace,
    configDir: cfgDir,
    reservedToolNames: CORE_TOOL_NAMES,
    moduleEnv: { mcp: mcpEnv },
  });
}

/** The modules a first model request asks something of (see the file's head). */
export function firstRequestModules(manifest: Manifest, mcpIdle: boolean): ModuleName[] {
  return manifest.modules
    .filter(
      (m) => m.hooks.some(mayPrecedeFirstRequest) || (MODULES[m.name].runtimeTools !== undefined && !mcpIdle),
    )
    .map((m) => m.name);
}

/**
 * Start the first request's workers for a run in `workspace` (--workspace, else the current directory)
 * with `profile` (--profile); undefined when anything is off (setup then reports it as usual).
 */
export function prestartWorkers(opts: { workspace?: string; profile?: string } = {}): Prestarted | undefined {
  try {
    const cfgDir = configDir();
    const cfg = loadConfig(cfgDir);
    const workspace = resolveWorkspace(opts.workspace);
    const manifest = generateManifest({
      ...(opts.profile ? { profile: opts.profile } : {}),
      configDir: cfgDir,
      plugins: cfg.plugins,
      bindings: cfg.bindings,
    });
    const mcp = mcpSetup(manifest, cfgDir, workspace);
    const host = runWorkerHost(manifest, cfgDir, workspace, mcp.env);
    host.start(firstRequestModules(manifest, mcp.idle)).catch(() => {});
    return { manifest, workspace, mcpEnv: mcp.env, host };
  } catch {
    return undefined;
  }
}

/** The prestarted host when it runs exactly this manifest, workspace and MCP env (else it is closed). */
export function prestartedHost(
  p: Prestarted | undefined,
  manifest: Manifest,
  workspace: string,
  mcpEnv: Record<string, string>,
): WorkerHost | undefined {
  if (!p || p.taken) return undefined;
  p.taken = true;
  if (p.workspace === workspace && jsonEqual(p.manifest, manifest) && jsonEqual(p.mcpEnv, mcpEnv))
    return p.host;
  void p.host.close();
  return undefined;
}

/** Close a prestarted host setup never took (the run stopped before it got that far). */
export async function dropPrestarted(p: Prestarted | undefined): Promise<void> {
  if (!p || p.taken) return;
  p.taken = true;
  await p.host.close();
}
