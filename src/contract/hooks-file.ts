// hooks.json: the user's own commands on agent events, in the shape Claude Code users already have, so their
// hooks port as they are. Two files: config_dir/hooks.json (the user's) and <workspace>/.i/hooks.json (the
// project's, untrusted until the user accepts it). Both are strict: an unknown event, key or hook type, or
// a matcher that is not a regular expression, is one line naming the file and the key.
import { z } from "zod";
import type { USER_HOOK_CONTRACT_EVENTS } from "./protocol.ts";

export const HOOKS_FILE = "hooks.json";
/** The project's file, relative to the workspace. */
export const PROJECT_HOOKS_FILE = ".i/hooks.json";

/** The user-facing event names and the contract event each one runs as. */
export const USER_HOOK_EVENTS = {
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  Stop: "stop",
  SubagentStop: "subagent_stop",
  Notification: "notification",
} as const satisfies Record<string, (typeof USER_HOOK_CONTRACT_EVENTS)[number]>;
export type UserHookEvent = keyof typeof USER_HOOK_EVENTS;
export type UserHookContractEvent = (typeof USER_HOOK_EVENTS)[UserHookEvent];
export const USER_HOOK_EVENT_NAMES = Object.keys(USER_HOOK_EVENTS) as UserHookEvent[];

/** Consecutive Stop blocks in one turn before the turn ends anyway (hooks.json `stop_block_limit`). */
export const DEFAULT_STOP_BLOCK_LIMIT = 8;

/** A hook without a timeout is killed after this many seconds (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
/** The longest timeout a hook may ask for: an hour. */
export const MAX_HOOK_TIMEOUT_S = 3600;

/**
 * The matcher as a regular expression on tool names, or undefined for "all": empty, absent and "*"
 * (Claude Code's match-all) match every tool. Matched case-insensitively, so Claude Code's `Bash` or
 * `Edit|Write` match `i`'s `bash`, `edit` and `write`; anchored, so `edit` does not match `mcp__x__edit_file`.
 */
export function matcherRegExp(matcher: string | undefined): RegExp | undefined {
  if (matcher === undefined || matcher === "" || matcher === "*") return undefined;
  return new RegExp(`^(?:${matcher})$`, "i");
}

function compiles(matcher: string): boolean {
  try {
    matcherRegExp(matcher);
    return true;
  } catch {
    return false;
  }
}

export const HookCommand = z.lazy(() =>
  z.strictObject({
    type: z.literal("command", { error: 'must be "command" (the only hook type i runs)' }),
    /** run through the shell, in the workspace, with the event as JSON on stdin */
    command: z.string().trim().min(1),
    /** seconds before the hook (its whole process group) is killed; default 60 */
    timeout: z.number().positive().max(MAX_HOOK_TIMEOUT_S).optional(),
  }),
);
export type HookCommand = z.infer<typeof HookCommand>;

export const HookMatcher = z.lazy(() =>
  z.strictObject({
    /** a regular expression on tool names (PreToolUse, PostToolUse); empty, absent or "*" match all */
    matcher: z
      .string()
      .refine(compiles, "is not a valid regular expression; escape special characters or fix it")
      .optional(),
    hooks: z.array(HookCommand),
  }),
);
export type HookMatcher = z.infer<typeof HookMatcher>;

const eventShape = Object.fromEntries(
  USER_HOOK_EVENT_NAMES.map((e) => [e, z.array(HookMatcher).optional()]),
) as Record<UserHookEvent, z.ZodOptional<z.ZodArray<typeof HookMatcher>>>;

export const HooksFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    /** i's own: consecutive blocks of the Stop hooks in one turn before the turn ends anyway; default 8 */
    stop_block_limit: z.number().int().min(1).max(1000).optional(),
    hooks: z.strictObject(eventShape).optional(),
  }),
);
export type HooksFile = z.infer<typeof HooksFile>;
