// The one reading of a session that every export format renders: its record and its messages, each
// marked for what it is, plus what a reader wants of a tool call (its result shortened, the diff an
// edit or write made).
import type { ExportMessage, SessionExport } from "../contract/export.ts";
import { contentWithImageMarkers, type History, type Message } from "../contract/history.ts";
import type { SessionMeta } from "../contract/session.ts";
import { diffFiles } from "../tools/diff.ts";

/** A tool result is shortened to this many lines and characters in markdown and HTML (JSON keeps it whole). */
export const RESULT_MAX_LINES = 30;
export const RESULT_MAX_CHARS = 3000;

/** A user-role message nobody typed: the approval-mode note, a hook's context, an interruption marker. */
function isAdded(m: Message): boolean {
  const meta = m.meta ?? {};
  return typeof meta.approval_mode === "string" || typeof meta.hook === "string" || meta.interrupted === true;
}

function kindOf(m: Message): ExportMessage["kind"] {
  if (m.role === "system") return "system";
  if (m.role === "tool") return "tool_result";
  if (m.meta?.summary) return "summary";
  if (m.meta?.restored) return "restored";
  if (m.role === "user" && typeof m.meta?.shell_command === "string") return "command";
  if (m.role === "user" && isAdded(m)) return "added";
  return "message";
}

export function exportDoc(meta: SessionMeta, history: History, parent?: string): SessionExport {
  const messages = history.map((m, index): ExportMessage => {
    const ts = typeof m.meta?.ts === "string" ? m.meta.ts : undefined;
    return {
      index,
      role: m.role,
      kind: kindOf(m),
      ...(ts ? { ts } : {}),
      text: contentWithImageMarkers(m.content),
      ...(m.tool_calls?.length
        ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) }
        : {}),
      ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
      ...(m.meta?.is_error ? { is_error: true } : {}),
    };
  });
  return {
    format: "i-session-export",
    version: 1,
    exported: new Date().toISOString(),
    session: {
      id: meta.id,
      workspace: meta.workspace,
      ...(meta.title ? { title: meta.title } : {}),
      created: meta.created,
      updated: meta.updated,
      ...(meta.provider ? { provider: meta.provider } : {}),
      ...(meta.model ? { model: meta.model } : {}),
      ...(parent ? { parent } : {}),
      compactions: meta.compactions,
    },
    messages,
  };
}

/** `text` cut to the export limits, with a note of what was left out. */
export function shortened(text: string): string {
  const lines = text.split("\n");
  let out = lines.slice(0, RESULT_MAX_LINES).join("\n");
  if (out.length > RESULT_MAX_CHARS) out = out.slice(0, RESULT_MAX_CHARS);
  const cut = text.length - out.length;
  return cut > 0 ? `${out}\n… (${cut} more characters in the session)` : out;
}

export type DiffRow = { op: " " | "-" | "+"; text: string };

/** The diff a write or edit call made, from its arguments; undefined for other calls. */
export function callDiff(name: string, args: string): { path: string; rows: DiffRow[] } | undefined {
  if (name !== "edit" && name !== "write") return undefined;
  let a: Record<string, unknown>;
  try {
    a = JSON.parse(args) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof a.path !== "string") return undefined;
  const before = name === "edit" && typeof a.old_text === "string" ? a.old_text : "";
  const after = name === "edit" ? a.new_text : a.content;
  if (typeof after !== "string") return undefined;
  const d = diffFiles(before, after, { context: 2, maxLines: 60 });
  const rows: DiffRow[] = d.hunks.flatMap((h) => h.map((l) => ({ op: l.op, text: l.text })));
  if (d.omitted > 0) rows.push({ op: " ", text: `… ${d.omitted} more lines` });
  return { path: a.path, rows };
}

/** The tool results of `doc`, by the call they answer. */
export function resultsByCall(doc: SessionExport): Map<string, ExportMessage> {
  const m = new Map<string, ExportMessage>();
  for (const msg of doc.messages) if (msg.tool_call_id) m.set(msg.tool_call_id, msg);
  return m;
}

/** A call's arguments for reading: a bash command as the command, anything else as compact JSON. */
export function callSummary(name: string, args: string): string {
  try {
    const a = JSON.parse(args) as Record<string, unknown>;
    if (name === "bash" && typeof a.command === "string") return a.command;
    if ((name === "edit" || name === "write" || name === "read") && typeof a.path === "string") return a.path;
    return JSON.stringify(a);
  } catch {
    return args;
  }
}

export const KIND_LABEL: Record<ExportMessage["kind"], string> = {
  system: "System prompt",
  message: "",
  summary: "Summary of the earlier conversation (written by compaction)",
  restored: "Restored by compaction",
  command: "Your shell command",
  added: "Added for the model (not typed by you)",
  tool_result: "Tool result",
};
