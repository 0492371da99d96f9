// The console's approval question as ACP `session/request_permission`: the same choices (allow once,
// always for this command prefix / file tool / MCP tool / MCP server, reject), the tool call it is about,
// and for a file change the diff the editor can show before the user decides.
import type { PermissionOption, RequestPermissionResponse, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalRequest } from "../agent/agent-session.ts";
import { absolute } from "./tool-view.ts";
import { fileText } from "./updates.ts";

export function permissionOptions(req: ApprovalRequest): PermissionOption[] {
  const opts: PermissionOption[] = [{ optionId: "allow", name: "Allow once", kind: "allow_once" }];
  if (req.tool === "bash") {
    if (req.prefix)
      opts.push({
        optionId: "always",
        name: `Always allow \`${req.prefix}\` commands`,
        kind: "allow_always",
      });
  } else if (req.tool === "tool") {
    opts.push({
      optionId: "always",
      name: `Always allow ${req.title ?? req.name ?? "this tool"}`,
      kind: "allow_always",
    });
    if (req.group)
      opts.push({
        optionId: "always_group",
        name: `Always allow every tool of ${req.group}`,
        kind: "allow_always",
      });
  } else opts.push({ optionId: "always", name: `Always allow ${req.tool}`, kind: "allow_always" });
  opts.push({ optionId: "reject", name: "Reject", kind: "reject_once" });
  return opts;
}

/** The tool call the question is about, with the change it would make when it is a file change. */
export function permissionToolCall(req: ApprovalRequest, callId: string, workspace: string): ToolCallUpdate {
  const update: ToolCallUpdate = { toolCallId: callId, title: req.title ?? req.summary };
  const d = req.diff?.();
  if (d) {
    const path = absolute(workspace, d.path);
    const oldText = fileText(path);
    const newText = d.diff.omitted > 0 ? undefined : newTextOf(oldText ?? "", d.diff.hunks);
    if (oldText !== undefined && newText !== undefined)
      update.content = [{ type: "diff", path, oldText, newText }];
    update.locations = [{ path, ...(firstLine(d.diff.hunks) ? { line: firstLine(d.diff.hunks) } : {}) }];
  }
  return update;
}

type Hunk = { op: " " | "-" | "+"; text: string; old?: number; new?: number }[];

function firstLine(hunks: readonly Hunk[]): number | undefined {
  const l = hunks[0]?.find((x) => x.op !== " ");
  return l?.new ?? l?.old;
}

/** The whole new text: the old one with every hunk applied (undefined when the hunks do not fit it). */
export function newTextOf(oldText: string, hunks: readonly Hunk[]): string | undefined {
  if (hunks.some((h) => h.some((l) => l.op !== " " && l.old === undefined && l.new === undefined)))
    return undefined;
  const eol = oldText === "" || oldText.endsWith("\n");
  const lines = oldText === "" ? [] : oldText.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 0; // next old line (0-based) not yet copied
  for (const h of hunks) {
    const start = h.find((l) => l.old !== undefined)?.old;
    if (start === undefined) {
      // only additions: they go where the new numbering says
      const n = (h[0]?.new ?? 1) - 1;
      while (out.length < n && at < lines.length) out.push(lines[at++] as string);
    } else while (at < start - 1 && at < lines.length) out.push(lines[at++] as string);
    for (const l of h) {
      if (l.op === "+") out.push(l.text);
      else {
        if (lines[at] !== l.text) return undefined;
        if (l.op === " ") out.push(l.text);
        at++;
      }
    }
  }
  while (at < lines.length) out.push(lines[at++] as string);
  return out.length === 0 ? "" : `${out.join("\n")}${eol ? "\n" : ""}`;
}

/** The client's answer as the console's; no answer (the prompt was cancelled) cancels the turn. */
export function answerOf(res: RequestPermissionResponse): ApprovalAnswer {
  if (res.outcome.outcome === "cancelled") return { kind: "cancel" };
  switch (res.outcome.optionId) {
    case "allow":
      return { kind: "yes" };
    case "always":
      return { kind: "always" };
    case "always_group":
      return { kind: "always_group" };
    default:
      return { kind: "no", reason: "the user rejected it in the editor" };
  }
}
