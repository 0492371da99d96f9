// The agent's side of the user's hooks (hooks.json, run by whichever module declares the events): one call
// per agent event, which asks nothing of a worker when no hook is configured for it, runs the hooks one
// event at a time (a hook may run for its own timeout, and a worker serving several modules answers in
// order), and reports every block and warning as one `hook` event naming the hook.

import { errorMessage } from "../contract/errors.ts";
import type { CompactionReason, EmitEvent } from "../contract/events.ts";
import { type Content, contentWithImageMarkers, type ToolCall } from "../contract/history.ts";
import type { HookReply } from "../contract/hooks.ts";
import { DEFAULT_STOP_BLOCK_LIMIT, USER_HOOK_EVENTS, type UserHookEvent } from "../contract/hooks-file.ts";
import type { HookEvent } from "../contract/protocol.ts";
import type { HookNote, UserHookReply } from "../contract/user-hooks.ts";
import type { DispatchSeams, ToolCallInfo } from "../tools/dispatch.ts";
import type { HookRunner } from "../worker/types.ts";

type Event = (typeof USER_HOOK_EVENTS)[UserHookEvent];
const NAMES = Object.fromEntries(Object.entries(USER_HOOK_EVENTS).map(([k, v]) => [v, k])) as Record<
  Event,
  UserHookEvent
>;

export interface PromptVerdict {
  /** the reason the prompt is not sent */
  blocked?: string;
  context: string[];
}

function parsedArguments(text: string): unknown {
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

export class UserHooks {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly hooks: HookRunner,
    private readonly sessionId: string,
    private readonly emit: EmitEvent,
    /** consecutive Stop blocks in one turn before the turn ends anyway */
    readonly stopBlockLimit = DEFAULT_STOP_BLOCK_LIMIT,
  ) {}

  /** Whether any module could act on `event` (for `tool`): false costs nothing more. */
  wants(event: Event, tool?: string): boolean {
    if (!this.hooks.hasHook(event as HookEvent)) return false;
    return this.hooks.wantsHook?.(event as HookEvent, tool) ?? true;
  }

  /** Run `event`; a worker failure is a warning and the work goes on, like a failing hook. */
  private run(event: Event, data: Record<string, unknown>): Promise<UserHookReply | undefined> {
    const next = this.queue.then(async () => {
      try {
        return (await this.hooks.runHook(event as HookEvent, {
          session_id: this.sessionId,
          ...data,
        })) as HookReply<"pre_tool_use">;
      } catch (err) {
        this.emit({
          type: "hook",
          event: NAMES[event],
          hook: "(hooks module)",
          outcome: "warning",
          message: errorMessage(err),
        });
        return undefined;
      }
    });
    this.queue = next.catch(() => {});
    return next.then((reply) => {
      for (const w of reply?.warnings ?? [])
        this.emit({
          type: "hook",
          event: NAMES[event],
          hook: w.hook,
          outcome: "warning",
          message: w.message,
        });
      if (reply?.block)
        this.emit({
          type: "hook",
          event: NAMES[event],
          hook: reply.block.hook,
          outcome: "block",
          message: reply.block.message,
        });
      return reply;
    });
  }

  /** PreToolUse and PostToolUse as the tool dispatch's seams around every call. */
  seams(): DispatchSeams {
    const asCall = (info: ToolCallInfo): ToolCall => ({
      id: info.id,
      name: info.name,
      arguments: JSON.stringify(info.args ?? {}),
    });
    return {
      beforeCall: async (info) => {
        const reason = await this.preToolUse(asCall(info));
        return reason === undefined ? undefined : { block: `the user's PreToolUse hook says: ${reason}` };
      },
      afterCall: async (info, result) => {
        const response = { content: contentWithImageMarkers(result.content), is_error: result.is_error };
        const feedback = await this.postToolUse(asCall(info), response);
        if (feedback === undefined) return undefined;
        const note = `[the user's PostToolUse hook says:]\n${feedback}`;
        const content: Content =
          typeof result.content === "string"
            ? `${result.content}\n\n${note}`
            : [...result.content, { type: "text", text: note }];
        return { ...result, content };
      },
    };
  }

  /** The reason a PreToolUse hook blocked `call`, or undefined when it may run. */
  async preToolUse(call: ToolCall): Promise<string | undefined> {
    if (!this.wants("pre_tool_use", call.name)) return undefined;
    const reply = await this.run("pre_tool_use", {
      tool_name: call.name,
      tool_input: parsedArguments(call.arguments),
      call_id: call.id,
    });
    return reply?.block?.message;
  }

  /** What a PostToolUse hook that blocked says to the model about the result (undefined: nothing). */
  async postToolUse(
    call: ToolCall,
    response: { content: string; is_error: boolean },
  ): Promise<string | undefined> {
    if (!this.wants("post_tool_use", call.name)) return undefined;
    const reply = await this.run("post_tool_use", {
      tool_name: call.name,
      tool_input: parsedArguments(call.arguments),
      call_id: call.id,
      tool_response: response,
    });
    return reply?.block?.message;
  }

  /** Text SessionStart hooks add to the model's context. */
  async sessionStart(source: "startup" | "resume"): Promise<string[]> {
    if (!this.wants("session_start")) return [];
    return (await this.run("session_start", { source }))?.context ?? [];
  }

  async userPromptSubmit(prompt: string): Promise<PromptVerdict> {
    if (!this.wants("user_prompt_submit")) return { context: [] };
    const reply = await this.run("user_prompt_submit", { prompt });
    return { ...(reply?.block ? { blocked: reply.block.message } : {}), context: reply?.context ?? [] };
  }

  /** The block of a Stop (or SubagentStop) hook that wants the agent to go on (its reason, the hook), or
   * undefined to stop. `active`: the agent is already going on because of such a block. */
  async stop(lastMessage: string, active: boolean, subagent: boolean): Promise<HookNote | undefined> {
    const event = subagent ? "subagent_stop" : "stop";
    if (!this.wants(event)) return undefined;
    return (await this.run(event, { stop_hook_active: active, last_message: lastMessage }))?.block;
  }

  async preCompact(reason: CompactionReason, instructions?: string): Promise<void> {
    if (!this.wants("pre_compact")) return;
    await this.run("pre_compact", { trigger: reason, custom_instructions: instructions ?? "" });
  }

  async notification(message: string): Promise<void> {
    if (!this.wants("notification")) return;
    await this.run("notification", { message });
  }
}
