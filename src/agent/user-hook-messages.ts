// The messages the user's hooks add to a conversation: context that SessionStart and UserPromptSubmit hooks
// printed, and the reason a Stop hook gave for going on. User messages, marked in `meta.hook` so the console
// and exports can tell them from what the user typed.
import type { Message } from "../contract/history.ts";

export function hookContextMessage(event: string, text: string, ts: string): Message {
  return {
    role: "user",
    content: `[context from the user's ${event} hook]\n${text}`,
    meta: { ts, hook: event },
  };
}

export function stopHookMessage(reason: string, subagent: boolean, ts: string): Message {
  const event = subagent ? "SubagentStop" : "Stop";
  return {
    role: "user",
    content: `[The user's ${event} hook did not let you stop yet. Its reason:]\n${reason}`,
    meta: { ts, hook: event },
  };
}
