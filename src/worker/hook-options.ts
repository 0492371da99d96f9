// What a module said at hello about the hooks it declares (HookOptions in the contract), ready for the hot
// path: whether a request for an event (and tool) can be left out, and the event's own deadline.
import { matcherRegExp } from "../contract/hooks-file.ts";
import type { HookOptions } from "../contract/user-hooks.ts";

export interface CompiledHookOption {
  idle: boolean;
  /** undefined: every tool */
  tools: RegExp[] | undefined;
  deadlineMs: number | undefined;
}
export type CompiledHookOptions = Record<string, CompiledHookOption>;

/** Compile the tool patterns once; a pattern that does not compile matches every tool (never a lost hook). */
export function compileHookOptions(options: Record<string, HookOptions>): CompiledHookOptions {
  const out: CompiledHookOptions = {};
  for (const [event, o] of Object.entries(options)) {
    let tools: RegExp[] | undefined;
    try {
      tools = o.tools?.map((t) => matcherRegExp(t) ?? /^/);
    } catch {
      tools = undefined;
    }
    out[event] = { idle: o.idle === true, tools, deadlineMs: o.deadline_ms };
  }
  return out;
}

/** True when the module said nothing is configured for `event`, or nothing for the tool in `data`. */
export function skipsHook(
  options: CompiledHookOptions | undefined,
  event: string,
  data: Record<string, unknown>,
): boolean {
  const o = options?.[event];
  if (!o) return false;
  if (o.idle) return true;
  const tool = data.tool_name;
  if (!o.tools || typeof tool !== "string") return false;
  return !o.tools.some((r) => r.test(tool));
}
