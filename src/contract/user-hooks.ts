// The contract events on which the user's own commands run (hooks.json; the `hooks` module). Any worker may
// declare them. Each request carries what a hook command is told on stdin; each module of the pipeline
// answers with the data it received plus its verdict: a block (the one the user's hooks chose, kept by every
// later module), text for the model's context, and warnings the console shows in one line each.
import { z } from "zod";

/** What one hook said: the hook (its command) and the text, for a block or a warning. */
export const HookNote = z.strictObject({ hook: z.string(), message: z.string() });
export type HookNote = z.infer<typeof HookNote>;

/** The fields a module adds to any of these events' data. */
const Verdict = {
  /** the call, prompt or stop is blocked; `message` is the reason (to the model, or shown) */
  block: HookNote.optional(),
  /** text added to the model's context (session_start, user_prompt_submit) */
  context: z.array(z.string()).optional(),
  /** hooks that failed, timed out or could not start: shown to the user, the work goes on */
  warnings: z.array(HookNote).optional(),
};

const Base = { session_id: z.string() };

export const PreToolUseData = z.lazy(() =>
  z.looseObject({
    ...Base,
    tool_name: z.string(),
    /** the arguments the model sent (parsed JSON; the raw text when it is not JSON) */
    tool_input: z.unknown(),
    call_id: z.string(),
  }),
);
export const PostToolUseData = z.lazy(() =>
  PreToolUseData.unwrap().extend({
    /** what the tool returned: its text and whether it is an error */
    tool_response: z.strictObject({ content: z.string(), is_error: z.boolean() }),
  }),
);
export const SessionStartData = z.lazy(() =>
  z.looseObject({ ...Base, source: z.enum(["startup", "resume"]) }),
);
export const UserPromptSubmitData = z.looseObject({ ...Base, prompt: z.string() });
export const StopData = z.lazy(() =>
  z.looseObject({
    ...Base,
    /** true when the agent is already going on because a stop hook blocked (a hook can avoid a loop) */
    stop_hook_active: z.boolean(),
    /** the final text the agent would stop with */
    last_message: z.string(),
  }),
);
export const PreCompactData = z.lazy(() =>
  z.looseObject({
    ...Base,
    trigger: z.enum(["auto", "manual", "overflow"]),
    custom_instructions: z.string(),
  }),
);
export const NotificationData = z.looseObject({ ...Base, message: z.string() });

/** Every one of these events answers with the same shape: the data, plus the verdict fields. */
export const UserHookReply = z.looseObject(Verdict);
export type UserHookReply = z.infer<typeof UserHookReply>;

/**
 * What a module may say at hello about each hook it declares (`hook_options`), so the core neither waits
 * too little nor asks for nothing:
 * - `deadline_ms`: the request deadline for this event, instead of the protocol's 15 s (a user's hook may
 *   run for its own timeout, up to an hour); at most MAX_HOOK_DEADLINE_MS.
 * - `idle`: nothing is configured for this event; the core does not send it.
 * - `tools`: for pre_tool_use/post_tool_use, regular expressions (case-insensitive, anchored) of the tool
 *   names anything is configured for; the core sends the event only for a tool one of them matches.
 * - `extensions`: for files_changed, the file extensions (".ts", case-insensitive) anything is configured
 *   for; the core sends the event only when a changed or touched file has one of them.
 * Options are fixed for the life of the worker process.
 */
export const MAX_HOOK_DEADLINE_MS = 3_660_000;
export const HookOptions = z.lazy(() =>
  z.strictObject({
    deadline_ms: z.number().int().positive().max(MAX_HOOK_DEADLINE_MS).optional(),
    idle: z.boolean().optional(),
    tools: z.array(z.string()).optional(),
    extensions: z.array(z.string()).optional(),
  }),
);
export type HookOptions = z.infer<typeof HookOptions>;
