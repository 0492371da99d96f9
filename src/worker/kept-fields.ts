// A hook returns the complete data object it was sent, unrelated fields preserved: each hook names the
// fields a module is there to fill in or change, and every other field it was sent must come back with
// the same value (deep equality; a float may come back a unit in the last place off). Cheap on the hot
// path: a large message array echoed verbatim comes back holding the very message objects sent
// (decode-reply.ts), so comparing it is one identity check per message; scripts/bench/hook-kept-fields.ts
// measures it.

import type { HookEvent } from "../contract/protocol.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import type { HookData } from "./types.ts";

const USER_HOOK_FIELDS = ["block", "context", "warnings"] as const;

/** Per hook, the fields a module may change; undefined: the reply is not used (no value check). */
export const MAY_CHANGE: Readonly<Record<HookEvent, readonly string[] | undefined>> = {
  system_prompt: ["system"],
  steer: ["messages"],
  budget: ["budget", "state"],
  compact_plan: ["cut", "state", "decline_reason"],
  before_compact: ["prompt", "messages", "summary", "summary_images", "retained_images", "state"],
  after_compact: ["summary"],
  // A module that restores into the candidate passes on the room it left to the next one.
  before_compact_commit: ["candidate", "restore_room"],
  before_request: ["hints"],
  wire_request: ["body"],
  wire_response: ["message", "usage", "stop"],
  checkpoint: undefined,
  files_changed: ["diagnostics", "notices", "servers"],
  // The user's hooks: a module adds its verdict; what the event is about (the tool call, the prompt)
  // comes back as it was sent.
  session_start: USER_HOOK_FIELDS,
  user_prompt_submit: USER_HOOK_FIELDS,
  pre_tool_use: USER_HOOK_FIELDS,
  post_tool_use: USER_HOOK_FIELDS,
  pre_compact: USER_HOOK_FIELDS,
  stop: USER_HOOK_FIELDS,
  subagent_stop: USER_HOOK_FIELDS,
  notification: USER_HOOK_FIELDS,
};

const SUMMARY = "history_summary";

/**
 * The same JSON value, a number's last few bits aside: a worker's JSON library may read a float a unit
 * in the last place off (serde_json does by default) and write that back. Anything larger is a change.
 */
function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 4 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b));
}

/** Deep equality of JSON values (key order aside), numbers as sameNumber; identical objects at once. */
export function sameValue(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b, sameNumber);
}
const list = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(", ");

/**
 * Why `reply` is not `sent` completed by a module of `event`: a field it lost, or a field of the core's
 * own data (`core`, what the pipeline started with) that the hook may not change and that it changed.
 * Fields an earlier module added are between the modules of the pipeline. Undefined when it is fine.
 */
export function keptFieldProblem(
  event: HookEvent,
  core: HookData,
  sent: HookData,
  reply: HookData,
): string | undefined {
  for (const key in sent) {
    // The summary the host sent in place of the history: a module need not echo it (the host drops it).
    if (key === SUMMARY) continue;
    if (!(key in reply))
      return `the reply lost the field "${key}" it was sent; a hook must return the complete data object, unrelated fields preserved`;
  }
  const mayChange = MAY_CHANGE[event];
  if (mayChange === undefined) return undefined;
  for (const key in sent) {
    if (key === SUMMARY || !(key in core) || mayChange.includes(key) || sameValue(sent[key], reply[key]))
      continue;
    return `the reply changed the field "${key}" it was sent; on "${event}" a module may change only ${list(mayChange)} and must return every other field unchanged`;
  }
  return undefined;
}
