// Reference snapshots. Files the agent read, wrote or edited in the compacted part are listed in the
// summary message, and the current content of the most recent few is re-attached (within a small bound),
// so the agent does not lose track of its workspace after compaction. The files are collected in
// `before_compact`, which has the compacted span in hand, and carried to `before_compact_commit` in the
// opaque state (the core does not send the span a second time); the commit hook reads the files.
import { z } from "zod";
import type { Content, Message, ToolCall } from "../../src/contract/history.ts";
import { readRegularBytes } from "../../src/lib/regular-file.ts";
import { resolveInWorkspace } from "../sdk/workspace-path.ts";
import { Room } from "./room.ts";

/** Tools whose `path` argument names a workspace file. */
const FILE_TOOLS: Record<string, string> = { read: "read", write: "written", edit: "edited" };
export const MAX_LISTED_FILES = 40;
export const MAX_SNAPSHOT_FILES = 3;
export const MAX_SNAPSHOT_BYTES = 8 * 1024;
/** A snapshot shorter than this is not worth its place (the file list names the file anyway). */
const MIN_SNAPSHOT_BYTES = 256;
/** Files carried in the state, most recent kept: far more than are listed or can be attached. */
export const MAX_TRACKED_FILES = 500;

/** The files of the compacted span, as carried in the state (`state.touched_files`). */
export const TouchedFiles = z.lazy(() =>
  z.strictObject({
    /** least recently used first */
    files: z.array(z.strictObject({ path: z.string().min(1), actions: z.array(z.string()) })),
    /** files used in the span but not carried (older than the MAX_TRACKED_FILES most recent) */
    more: z.number().int().nonnegative(),
  }),
);
export type TouchedFiles = z.infer<typeof TouchedFiles>;

interface FileUse {
  path: string;
  actions: Set<string>;
  /** order of the last use */
  last: number;
}

/** A tool call's `path` argument, when its arguments are a JSON object with a string `path`. */
export function pathArgument(call: ToolCall): string | undefined {
  try {
    const path = (JSON.parse(call.arguments) as { path?: unknown } | null)?.path;
    return typeof path === "string" ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Files touched by file tools in `messages`, least recently used first. */
export function touchedFiles(messages: readonly Message[]): FileUse[] {
  const uses = new Map<string, FileUse>();
  let order = 0;
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) {
      const action = FILE_TOOLS[c.name];
      if (!action) continue;
      const path = pathArgument(c);
      if (path === undefined || path.trim() === "") continue;
      const use = uses.get(path) ?? { path, actions: new Set<string>(), last: 0 };
      use.actions.add(action);
      use.last = ++order;
      uses.set(path, use);
    }
  }
  return [...uses.values()].sort((a, b) => a.last - b.last);
}

/** What the state carries about the compacted span `messages`. */
export function collectTouchedFiles(messages: readonly Message[]): TouchedFiles {
  const all = touchedFiles(messages);
  const kept = all.slice(-MAX_TRACKED_FILES);
  return {
    files: kept.map((f) => ({ path: f.path, actions: [...f.actions] })),
    more: all.length - kept.length,
  };
}

/** Current text of a workspace file, or undefined (outside the workspace, missing, binary, too big). */
function currentText(workspace: string, path: string, maxBytes: number): string | undefined {
  try {
    // Paths come from model output: the same containment check as the file tools.
    const found = resolveInWorkspace(workspace, path);
    if (!found.ok) return undefined;
    const real = found.real;
    const buf = readRegularBytes(real, 1024 * 1024, "a file");
    if (buf === undefined) return undefined;
    if (buf.includes(0)) return undefined;
    const text = buf.toString("utf8");
    if (buf.length <= maxBytes) return text;
    return `${buf
      .subarray(0, maxBytes)
      .toString("utf8")
      .replace(/\uFFFD$/, "")}\n[… ${buf.length - maxBytes} more bytes; read the file for the rest …]`;
  } catch {
    return undefined;
  }
}

/** The file list, its oldest lines left out (counted under "… and N more") until it fits `room`. */
function fileList(touched: TouchedFiles, room: Room): string {
  const files = touched.files;
  let listed = files.slice(-MAX_LISTED_FILES);
  for (;;) {
    const lines = listed.map((f) => `- ${f.path} (${f.actions.join(", ")})`);
    let out = `\n\n[Files the agent used in the compacted part, least recent first]\n${lines.join("\n")}`;
    const unlisted = files.length - listed.length + touched.more;
    if (unlisted > 0) out += `\n- … and ${unlisted} more`;
    if (room.take(Room.textTokens(out))) return out;
    if (listed.length === 0) return "";
    listed = listed.slice(1);
  }
}

/** One file's snapshot within `maxBytes` and `room`, shortened until it fits; undefined when it cannot. */
function snapshot(workspace: string, path: string, maxBytes: number, room: Room): string | undefined {
  let bytes = maxBytes;
  for (let tries = 0; tries < 6 && bytes >= MIN_SNAPSHOT_BYTES; tries++) {
    const text = currentText(workspace, path, bytes);
    if (text === undefined) return undefined;
    const piece = `\n\n[Current content of ${path} at compaction time]\n${text}`;
    const tokens = Room.textTokens(piece);
    if (room.take(tokens)) return piece;
    // Shrink in proportion to the overshoot, a little more so the cut-off note fits too.
    bytes = Math.floor((bytes * room.left) / tokens) - 64;
  }
  return undefined;
}

export function snapshotText(
  touched: TouchedFiles,
  suffix: readonly Message[],
  workspace: string,
  room: Room = Room.unbounded(),
): string {
  const files = touched.files;
  if (files.length === 0) return "";
  const stillVisible = new Set(touchedFiles(suffix).map((f) => f.path));
  let out = fileList(touched, room);
  if (out === "") return "";
  let budget = MAX_SNAPSHOT_BYTES;
  let attached = 0;
  for (let k = files.length - 1; k >= 0 && attached < MAX_SNAPSHOT_FILES && budget > 0; k--) {
    const f = files[k] as TouchedFiles["files"][number];
    if (stillVisible.has(f.path)) continue;
    const piece = snapshot(workspace, f.path, budget, room);
    if (piece === undefined) continue;
    out += piece;
    budget -= Buffer.byteLength(piece);
    attached++;
  }
  return out;
}

function appendText(content: Content, extra: string): Content {
  if (typeof content === "string") return content + extra;
  const i = content.findIndex((p) => p.type === "text");
  if (i < 0) return [{ type: "text", text: extra.trimStart() }, ...content];
  return content.map((p, k) => (k === i && p.type === "text" ? { ...p, text: p.text + extra } : p));
}

/** The candidate with the snapshot text added to its summary message (candidate[1]). */
export function restoreSnapshots(
  candidate: Message[],
  touched: TouchedFiles,
  workspace: string,
  room: Room = Room.unbounded(),
): Message[] {
  const summary = candidate[1];
  if (summary?.meta?.summary !== true) return candidate;
  // The core builds [system, summary, ...recent suffix]; the recent suffix is still in context.
  const suffix = candidate.slice(2);
  const extra = snapshotText(touched, suffix, workspace, room);
  if (extra === "") return candidate;
  const next = [...candidate];
  next[1] = { ...summary, content: appendText(summary.content, extra) };
  return next;
}
