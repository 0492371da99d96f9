// A reply stopped by the output limit while a tool call was being written: that call's arguments are cut
// off (often a large write). It is not run — running half a file, or failing with "not valid JSON", makes
// the model send the same oversized call again — and the model is told exactly what happened.
import type { EmitEvent } from "../contract/events.ts";
import type { Message, ToolCall } from "../contract/history.ts";

export const CUT_CALL_MESSAGE =
  "output limit reached in the middle of the call, so it was not run; write the file in parts (write a first part, then add the rest with edit) or make the call smaller";

function isWholeObject(args: string): boolean {
  // A cut before any argument arrived can come back as "{}" (the wire's empty start): not whole either.
  if (args.trim() === "" || args.trim() === "{}") return false;
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The call the output limit cut, in a reply that stopped there: the last one, unless it is whole. */
export function cutToolCall(calls: ToolCall[], stop: string): ToolCall | undefined {
  const last = calls.at(-1);
  if (stop !== "length" || !last || isWholeObject(last.arguments)) return undefined;
  return last;
}

/** The cut call's result (told as it is, shown to the user like any other call). */
export function cutCallResult(call: ToolCall, emit: EmitEvent): Message {
  emit({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
  emit({
    type: "tool_result",
    id: call.id,
    name: call.name,
    is_error: true,
    content: CUT_CALL_MESSAGE,
    duration_ms: 0,
  });
  emit({
    type: "notice",
    level: "warn",
    message: `the reply reached the output limit in the middle of a ${call.name} call; it was not run, and the model was told to write in parts`,
  });
  return { role: "tool", tool_call_id: call.id, content: CUT_CALL_MESSAGE, meta: { is_error: true } };
}
