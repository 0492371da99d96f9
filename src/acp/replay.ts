// `session/load`: a saved conversation told again as `session/update`s, the way the client would have
// seen it live: the user's messages, the replies, every tool call with its final status and output, the
// last plan. What the agent added on its own (hook context, mode changes) is left out, as live.
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { contentText, type History, type Message } from "../contract/history.ts";
import { parseArgs, toolKind, toolLocations, toolTitle } from "./tool-view.ts";
import { clipped, outputBlock, planEntries, textContent } from "./updates.ts";

function userBlocks(m: Message): ContentBlock[] {
  const meta = m.meta ?? {};
  if (meta.shell_command) return [{ type: "text", text: `!${String(meta.shell_command)}` }];
  const typed = typeof meta.typed === "string" ? meta.typed : undefined;
  const out: ContentBlock[] = [{ type: "text", text: typed ?? contentText(m.content) }];
  if (typeof m.content !== "string")
    for (const p of m.content)
      if (p.type === "image") out.push({ type: "image", mimeType: p.media_type, data: p.data });
  return out;
}

function skipped(m: Message): boolean {
  const meta = m.meta ?? {};
  return typeof meta.hook === "string" || meta.approval_mode !== undefined || meta.restored === true;
}

export function replayUpdates(history: Readonly<History>, workspace: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  const results = new Map<string, Message>();
  for (const m of history) if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, m);
  for (const m of history.slice(1)) {
    if (m.role === "user") {
      if (skipped(m)) continue;
      if (m.meta?.summary) {
        out.push({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: "[earlier conversation compacted into a summary]\n" },
        });
        continue;
      }
      if (m.meta?.interrupted) continue;
      for (const content of userBlocks(m)) out.push({ sessionUpdate: "user_message_chunk", content });
    } else if (m.role === "assistant") {
      const text = contentText(m.content);
      if (text) out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
      for (const call of m.tool_calls ?? []) out.push(...callUpdates(call, results.get(call.id), workspace));
    }
  }
  return out;
}

function callUpdates(
  call: NonNullable<Message["tool_calls"]>[number],
  result: Message | undefined,
  workspace: string,
): SessionUpdate[] {
  const args = parseArgs(call.arguments);
  const text = result ? contentText(result.content) : "no result was recorded";
  const failed = !result || result.meta?.is_error === true;
  const out: SessionUpdate[] = [
    {
      sessionUpdate: "tool_call",
      toolCallId: call.id,
      title: toolTitle(call.name, args),
      kind: toolKind(call.name),
      status: failed ? "failed" : "completed",
      locations: toolLocations(call.name, args, workspace),
      rawInput: args,
      content: [call.name === "bash" ? outputBlock(text) : textContent(clipped(text))],
    },
  ];
  if (call.name === "plan") {
    const entries = planEntries(args);
    if (entries) out.push({ sessionUpdate: "plan", entries });
  }
  return out;
}
