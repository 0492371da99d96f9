// How one of our tool calls looks to an ACP client: its kind (the editor picks an icon and a behaviour from
// it), a title of one line, the files it touches (so the editor can follow along), and the files a change
// may rewrite (their text is kept before the call, for the diff the editor shows after it).
import { isAbsolute, resolve } from "node:path";
import type { ToolKind } from "@agentclientprotocol/sdk";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  apply_patch: "edit",
  bash: "execute",
  grep: "search",
  find: "search",
  web_fetch: "fetch",
  web_search: "fetch",
  plan: "think",
  task: "think",
  skill: "read",
  memory: "other",
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

export type ToolArgs = Record<string, unknown>;

/** The call's arguments as an object ({} when they are not JSON: the tool itself says what is wrong). */
export function parseArgs(text: string): ToolArgs {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as ToolArgs) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** One line: what the call does, in the editor's words. */
export function toolTitle(name: string, args: ToolArgs): string {
  const path = str(args.path);
  const line = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s).replace(/\s*\n\s*/g, " ⏎ ");
  switch (name) {
    case "read":
      return `Read ${path ?? "file"}`;
    case "write":
      return `Write ${path ?? "file"}`;
    case "edit":
      return `Edit ${path ?? "file"}`;
    case "apply_patch":
      return `Patch ${patchPaths(args).join(", ") || "files"}`;
    case "bash":
      return `Run ${line(str(args.command) ?? "command")}`;
    case "grep":
      return `Search ${line(str(args.pattern) ?? "")}${path ? ` in ${path}` : ""}`;
    case "find":
      return `Find ${line(str(args.pattern) ?? str(args.glob) ?? str(args.name) ?? "files")}`;
    case "web_fetch":
      return `Fetch ${str(args.url) ?? "page"}`;
    case "web_search":
      return `Search the web: ${line(str(args.query) ?? "")}`;
    case "plan":
      return "Update plan";
    case "task":
      return `Task: ${line(str(args.description) ?? str(args.agent) ?? "sub-agent")}`;
    default:
      return name;
  }
}

/** The paths an apply_patch call names (its Add/Update/Delete/Move headers). */
export function patchPaths(args: ToolArgs): string[] {
  const text = str(args.input) ?? str(args.patch) ?? "";
  const out: string[] = [];
  for (const m of text.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    const p = (m[1] ?? m[2] ?? "").trim();
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** An absolute path for the client (ACP paths are absolute), the workspace's files named relative to it. */
export function absolute(workspace: string, path: string): string {
  return isAbsolute(path) ? path : resolve(workspace, path);
}

/** The files a call works on, with the line it starts at when it says. */
export function toolLocations(
  name: string,
  args: ToolArgs,
  workspace: string,
): { path: string; line?: number }[] {
  const path = str(args.path);
  if (name === "apply_patch") return patchPaths(args).map((p) => ({ path: absolute(workspace, p) }));
  if (!path || !["read", "write", "edit", "grep", "find"].includes(name)) return [];
  const line = typeof args.offset === "number" ? args.offset : undefined;
  return [{ path: absolute(workspace, path), ...(line !== undefined ? { line } : {}) }];
}

/** The files a call may rewrite: their text before it is kept for the diff. */
export function changedPaths(name: string, args: ToolArgs, workspace: string): string[] {
  if (name === "apply_patch") return patchPaths(args).map((p) => absolute(workspace, p));
  const path = str(args.path);
  return (name === "write" || name === "edit") && path ? [absolute(workspace, path)] : [];
}
