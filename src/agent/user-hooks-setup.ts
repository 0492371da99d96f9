// Setting up the user's hooks for a run: their files are checked before a session starts (a mistake is one
// line and exit 2, never a worker failing mid-run), a project file the user has not accepted is named, and
// the agent gets a UserHooks when any module of the manifest declares the events.
import type { EmitEvent } from "../contract/events.ts";
import type { Manifest } from "../contract/manifest.ts";
import { loadHooks, loadUserHooksFile } from "../lib/hooks-config.ts";
import type { WorkerHost } from "../worker/host.ts";
import { UserHooks } from "./user-hooks.ts";

/**
 * Check hooks.json (the user's, and the project's when accepted) for the built-in hooks module; returns the
 * warning line for a project file left out because it is not accepted for this workspace.
 */
export function checkHooksConfig(
  manifest: Manifest,
  configDir: string,
  workspace: string,
): string | undefined {
  if (!manifest.modules.some((m) => m.name === "hooks" && m.builtin)) return undefined;
  const loaded = loadHooks(configDir, workspace);
  if (loaded.projectRefused)
    return `${loaded.projectRefused}; this project file is ignored, the run goes on without it`;
  if (!loaded.projectIgnored) return undefined;
  return `${loaded.projectIgnored}: ignored, this project's hooks are not accepted for this workspace (or changed since); review them, then run \`i trust\` (or /trust in the console)`;
}

export function userHooksFor(
  host: WorkerHost,
  sessionId: string,
  emit: EmitEvent,
  configDir?: string,
): UserHooks | undefined {
  const any = (
    ["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop"] as const
  ).some((e) => host.hasHook(e));
  return any ? new UserHooks(host, sessionId, emit, stopBlockLimit(configDir)) : undefined;
}

/** The user's `stop_block_limit` (hooks.json; the file was checked before the session started). */
function stopBlockLimit(configDir: string | undefined): number | undefined {
  if (configDir === undefined) return undefined;
  try {
    return loadUserHooksFile(configDir)?.stop_block_limit;
  } catch {
    return undefined;
  }
}
