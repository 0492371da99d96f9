// What a module said at hello about the hooks it declares (HookOptions in the contract), ready for the hot
// path: whether a request for an event (for a tool, for files) can be left out, and the event's own deadline.
import { extname } from "node:path";
import { matcherRegExp } from "../contract/hooks-file.ts";
import type { HookOptions } from "../contract/user-hooks.ts";

export interface CompiledHookOption {
  idle: boolean;
  /** undefined: every tool */
  tools: RegExp[] | undefined;
  /** lower-case file extensions; undefined: every file */
  extensions: ReadonlySet<string> | undefined;
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
    const extensions = o.extensions ? new Set(o.extensions.map((e) => e.toLowerCase())) : undefined;
    out[event] = { idle: o.idle === true, tools, extensions, deadlineMs: o.deadline_ms };
  }
  return out;
}

/** The files `data` names (`changed`, `touched`), or undefined when it names none. */
function filesOf(data: Record<string, unknown>): unknown[] | undefined {
  const files = [data.changed, data.touched].flatMap((x) => (Array.isArray(x) ? x : []));
  return files.length > 0 ? files : undefined;
}

/**
 * True when the module said nothing is configured for `event`, or nothing for the tool in `data`, or
 * nothing for any of the files it names.
 */
export function skipsHook(
  options: CompiledHookOptions | undefined,
  event: string,
  data: Record<string, unknown>,
): boolean {
  const o = options?.[event];
  if (!o) return false;
  if (o.idle) return true;
  const tool = data.tool_name;
  if (o.tools && typeof tool === "string" && !o.tools.some((r) => r.test(tool))) return true;
  const files = o.extensions && filesOf(data);
  if (!files) return false;
  return !files.some((f) => typeof f === "string" && o.extensions?.has(extname(f).toLowerCase()));
}
