// Reading hooks.json (the user's in config_dir, the project's in <workspace>/.i/) into one list of hooks per
// contract event. Shared by the hooks worker, which runs them, and the core, which checks the user's file
// before a session starts so a mistake is one line and exit 2 instead of a worker failing mid-run.
import { join } from "node:path";
import {
  DEFAULT_HOOK_TIMEOUT_S,
  HOOKS_FILE,
  HooksFile,
  matcherRegExp,
  PROJECT_HOOKS_FILE,
  USER_HOOK_EVENTS,
  type UserHookContractEvent,
  type UserHookEvent,
} from "../contract/hooks-file.ts";
import { MAX_CONFIG_BYTES, parseConfigText, parseWith } from "./json-file.ts";
import { RefusedFile, readRegularFile } from "./regular-file.ts";
import { isTrustedContent } from "./trust-store.ts";

/** One command to run on an event. */
export interface ConfiguredHook {
  event: UserHookEvent;
  /** undefined: every tool */
  matcher: RegExp | undefined;
  /** the matcher as written ("" for all) */
  matcherText: string;
  command: string;
  timeoutMs: number;
  /** the file it comes from */
  file: string;
}

export type HooksByEvent = Partial<Record<UserHookContractEvent, ConfiguredHook[]>>;

/** The hooks of one file's parsed content, by contract event, in file order. */
export function hooksOf(file: string, parsed: HooksFile, into: HooksByEvent = {}): HooksByEvent {
  for (const [name, matchers] of Object.entries(parsed.hooks ?? {})) {
    const event = name as UserHookEvent;
    const key = USER_HOOK_EVENTS[event];
    const list = into[key] ?? [];
    into[key] = list;
    for (const m of matchers ?? [])
      for (const h of m.hooks)
        list.push({
          event,
          matcher: matcherRegExp(m.matcher),
          matcherText: m.matcher ?? "",
          command: h.command,
          timeoutMs: Math.round((h.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000),
          file,
        });
  }
  return into;
}

/** Parse hooks.json text (throws a UserError naming the file and key). */
export function parseHooksText(file: string, text: string): HooksFile {
  return parseWith(file, HooksFile, parseConfigText(file, text));
}

/** config_dir/hooks.json, checked (undefined when absent). */
export function loadUserHooksFile(configDir: string): HooksFile | undefined {
  const file = join(configDir, HOOKS_FILE);
  const text = readRegularFile(file, MAX_CONFIG_BYTES, "a config file");
  return text === undefined ? undefined : parseHooksText(file, text);
}

export interface LoadedHooks {
  hooks: HooksByEvent;
  /** the project's file exists but is not the content the user accepted: it was left out */
  projectIgnored?: string;
  /** the project's file is no regular file or too large (the line saying so): it was left out unread */
  projectRefused?: string;
}

/**
 * Every hook that applies in `workspace`: the user's file, then the project's when its very bytes are what
 * the user accepted for this workspace (a project file never accepted, or changed since, is left out and
 * named in `projectIgnored`).
 */
export function loadHooks(configDir: string, workspace: string): LoadedHooks {
  const hooks: HooksByEvent = {};
  const userFile = join(configDir, HOOKS_FILE);
  const user = readRegularFile(userFile, MAX_CONFIG_BYTES, "a config file");
  if (user !== undefined) hooksOf(userFile, parseHooksText(userFile, user), hooks);
  const projectFile = join(workspace, PROJECT_HOOKS_FILE);
  let project: string | undefined;
  try {
    project = readRegularFile(projectFile, MAX_CONFIG_BYTES, "a config file");
  } catch (err) {
    // A project's file is the checkout's, not the user's mistake: the run goes on without it.
    if (err instanceof RefusedFile) return { hooks, projectRefused: err.message };
    throw err;
  }
  if (project === undefined) return { hooks };
  if (!isTrustedContent(configDir, workspace, PROJECT_HOOKS_FILE, project))
    return { hooks, projectIgnored: projectFile };
  hooksOf(projectFile, parseHooksText(projectFile, project), hooks);
  return { hooks };
}
