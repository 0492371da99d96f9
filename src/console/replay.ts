// What a resumed session shows first: its last turns as the live output showed them, bounded, with how
// many earlier messages are not shown. What the console or the agent added to the history is shown as it
// was said live, never as a prompt of the user's: a `!command` with its output, exit and time; a line
// queued while the model worked; an interruption; a request compaction restored; a change of approval
// mode; nothing for the context a hook added, which live was not shown either. Attached files are one line each, as when they were
// attached; tool results keep their exit code and time.

import { APPROVAL_LABELS, type ApprovalPolicy } from "../agent/agent-session.ts";
import type { AgentEvent } from "../contract/events.ts";
import { contentText, contentWithImageMarkers, type History, type Message } from "../contract/history.ts";
import { cutAtWord } from "../lib/cut-at-word.ts";

export const REPLAY_MAX_MESSAGES = 24;
export const REPLAY_MAX_TEXT_CHARS = 2000;
/** A compaction summary's preview: its first line, cut at a word. */
export const SUMMARY_PREVIEW_CHARS = 100;

export type ReplayItem =
  | { kind: "user"; text: string }
  /** a compaction summary standing for everything before it (its preview) */
  | { kind: "summary"; text: string }
  | { kind: "event"; event: AgentEvent }
  /** said by the console live (dim), or a warning-like line (yellow) */
  | { kind: "note"; text: string; level: "dim" | "yellow" }
  /** a `!command` of the user's: its output as the model got it */
  | { kind: "shell"; command: string; text: string; exit_code?: number | null; duration_ms: number }
  /** a reply finished: the console closes its text block */
  | { kind: "reply_end" };

export interface Replay {
  items: ReplayItem[];
  /** messages before the replayed ones (the system prompt not counted) */
  earlier: number;
}

function clip(s: string, max = REPLAY_MAX_TEXT_CHARS): string {
  return s.length > max ? `${s.slice(0, max)}… [${s.length - max} more characters]` : s;
}

/** Where to start: a user message, so no tool result is shown without the call it answers. */
function startIndex(h: Readonly<History>, max: number): number {
  let start = Math.max(1, h.length - max);
  while (start < h.length && (h[start] as Message).role !== "user") start++;
  return start >= h.length ? Math.max(1, h.length - max) : start;
}

const ATTACHMENT = /\n*<(file|directory|resource) (?:path|uri)="([^"]*)">[\s\S]*?<\/\1>/g;

/** The user's own words, and one line per file, directory or MCP resource attached to them. */
function userItems(text: string): ReplayItem[] {
  const attached: string[] = [];
  const own = text.replace(ATTACHMENT, (_, kind: string, path: string) => {
    attached.push(kind === "directory" ? `attached @${path} (directory listing)` : `attached @${path}`);
    return "";
  });
  return [
    { kind: "user", text: clip(own.trimEnd()) },
    ...attached.map((a): ReplayItem => ({ kind: "note", text: `  ${a}`, level: "dim" })),
  ];
}

/** A `!command` message: "I ran this shell command…\n$ CMD\nOUTPUT" → the output. */
function shellItem(m: Message): ReplayItem {
  const command = String(m.meta?.shell_command ?? "");
  const body = contentWithImageMarkers(m.content);
  const at = body.indexOf(`\n$ ${command}\n`);
  const text = at >= 0 ? body.slice(at + command.length + 4) : body;
  const code = m.meta?.exit_code;
  return {
    kind: "shell",
    command,
    text: clip(text),
    ...(typeof code === "number" || code === null ? { exit_code: code } : {}),
    duration_ms: typeof m.meta?.duration_ms === "number" ? m.meta.duration_ms : 0,
  };
}

/** How long a restored request's notice may quote it. */
export const RESTORED_PREVIEW_CHARS = 80;

/**
 * A message compaction put back (the user's earlier words, quoted after its label): a notice, as live,
 * where it was no prompt of the user's either.
 */
function restoredNote(m: Message): string {
  const parts = Array.isArray(m.content) ? m.content.slice(1) : [];
  const words = parts.length > 0 ? contentWithImageMarkers(parts) : contentWithImageMarkers(m.content);
  const first = words.split("\n").find((l) => l.trim() !== "") ?? "";
  return `↺ restored after compaction: ${cutAtWord(first.trim(), RESTORED_PREVIEW_CHARS)}`;
}

function userMessage(m: Message): ReplayItem[] {
  const meta = m.meta ?? {};
  const text = contentWithImageMarkers(m.content);
  if (meta.summary) {
    const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
    return [{ kind: "summary", text: cutAtWord(first, SUMMARY_PREVIEW_CHARS) }];
  }
  if (meta.restored) return [{ kind: "note", text: restoredNote(m), level: "dim" }];
  // Context a SessionStart or UserPromptSubmit hook printed, or a Stop hook's reason to go on: the model's
  // input, never shown live (only a hook's block or failure is), so not shown again here either.
  if (typeof meta.hook === "string") return [];
  // The note that told the model the approval mode changed: said live as the switch.
  const mode = meta.approval_mode;
  if (typeof mode === "string" && mode in APPROVAL_LABELS)
    return [{ kind: "note", text: `approvals: ${APPROVAL_LABELS[mode as ApprovalPolicy]}`, level: "dim" }];
  if (meta.interrupted)
    return [
      {
        kind: "note",
        text: "cancelled; the model will see that it was interrupted, and the session is saved",
        level: "yellow",
      },
    ];
  if (meta.shell_command) return [{ kind: "user", text: `!${String(meta.shell_command)}` }, shellItem(m)];
  if (meta.steered)
    return [
      {
        kind: "note",
        text: `(queued for the model at the next safe point: ${text.split("\n")[0] ?? ""})`,
        level: "dim",
      },
    ];
  return userItems(text);
}

export function replay(h: Readonly<History>, max = REPLAY_MAX_MESSAGES): Replay {
  const start = startIndex(h, max);
  const items: ReplayItem[] = [];
  const names = new Map<string, string>();
  for (const m of h.slice(start)) {
    if (m.role === "user") items.push(...userMessage(m));
    else if (m.role === "assistant") {
      const text = contentText(m.content);
      if (text.trim() !== "") {
        items.push({ kind: "event", event: { type: "text_delta", text: clip(text) } });
        items.push({ kind: "reply_end" });
      }
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.name);
        items.push({
          kind: "event",
          event: { type: "tool_call", id: c.id, name: c.name, arguments: c.arguments },
        });
      }
    } else if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      const code = m.meta?.exit_code;
      items.push({
        kind: "event",
        event: {
          type: "tool_result",
          id,
          name: names.get(id) ?? "tool",
          is_error: m.meta?.is_error === true,
          content: clip(contentWithImageMarkers(m.content)),
          duration_ms:
            typeof m.meta?.duration_ms === "number" ? Math.max(0, Math.round(m.meta.duration_ms)) : 0,
          ...(typeof code === "number" || code === null ? { exit_code: code } : {}),
        },
      });
    }
  }
  return { items, earlier: Math.max(0, start - 1) };
}
