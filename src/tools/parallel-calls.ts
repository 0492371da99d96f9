// Running one assistant message's tool calls: in order, one at a time, except a run of consecutive calls to
// tools that may run at once (the `task` tool), which run together, at most `max` at a time. Results come
// back in the calls' order whatever order they finish in, so the history stays the same either way.
import type { Message, ToolCall } from "../contract/history.ts";

export async function runInGroups(
  calls: readonly ToolCall[],
  parallel: { names: ReadonlySet<string>; max: number } | undefined,
  runOne: (call: ToolCall) => Promise<Message>,
): Promise<Message[]> {
  const out: Message[] = [];
  let i = 0;
  while (i < calls.length) {
    let j = i;
    while (parallel && j < calls.length && parallel.names.has((calls[j] as ToolCall).name)) j++;
    if (j - i < 2) {
      out.push(await runOne(calls[i] as ToolCall));
      i++;
      continue;
    }
    out.push(...(await limited(calls.slice(i, j), Math.max(1, parallel?.max ?? 1), runOne)));
    i = j;
  }
  return out;
}

async function limited(
  calls: readonly ToolCall[],
  max: number,
  runOne: (call: ToolCall) => Promise<Message>,
): Promise<Message[]> {
  const results: Message[] = new Array(calls.length);
  let next = 0;
  const lane = async () => {
    while (next < calls.length) {
      const k = next++;
      results[k] = await runOne(calls[k] as ToolCall);
    }
  };
  await Promise.all(Array.from({ length: Math.min(max, calls.length) }, lane));
  return results;
}
