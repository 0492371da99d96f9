// The language servers' part of the tool dispatch (the lsp module's `files_changed` hook): after write,
// edit and apply_patch the changed files go to their servers and the diagnostics they report are appended
// to the call's result; after read the file goes too, so its server starts before the first edit. A run
// whose manifest has no module declaring the hook gets no seam at all; one whose module said at hello
// that no server can run here costs a map lookup per call.
import { resolve } from "node:path";
import { errorMessage } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { Content } from "../contract/history.ts";
import type { DispatchSeams, ToolCallInfo } from "../tools/dispatch.ts";
import { parsePatch } from "../tools/patch/parse.ts";
import type { ToolResult } from "../tools/types.ts";
import type { HookRunner } from "../worker/types.ts";

type AfterCall = NonNullable<DispatchSeams["afterCall"]>;

/** The files a core tool call changed (`changed`) or only read (`touched`), as absolute paths. */
export function filesOfCall(info: ToolCallInfo, workspace: string): { changed: string[]; touched: string[] } {
  const args = (info.args ?? {}) as { path?: unknown; input?: unknown };
  const abs = (p: string) => resolve(workspace, p);
  if (info.name === "read" && typeof args.path === "string")
    return { changed: [], touched: [abs(args.path)] };
  if ((info.name === "write" || info.name === "edit") && typeof args.path === "string")
    return { changed: [abs(args.path)], touched: [] };
  if (info.name === "apply_patch" && typeof args.input === "string") {
    try {
      const changed = parsePatch(args.input).flatMap((op) =>
        op.kind === "update" && op.moveTo ? [abs(op.path), abs(op.moveTo)] : [abs(op.path)],
      );
      return { changed, touched: [] };
    } catch {
      // It applied, so it parsed; should it not now, there is nothing to sync.
    }
  }
  return { changed: [], touched: [] };
}

function appended(result: ToolResult, note: string): ToolResult {
  const content: Content =
    typeof result.content === "string"
      ? `${result.content}\n\n${note}`
      : [...result.content, { type: "text", text: note }];
  return { ...result, content };
}

export function lspAfterCall(host: HookRunner, workspace: string, emit: EmitEvent): AfterCall | undefined {
  if (!host.hasHook("files_changed")) return undefined;
  return async (info, result) => {
    if (info.kind !== "core" || result.is_error) return undefined;
    if (!(host.wantsHook?.("files_changed", info.name) ?? true)) return undefined;
    const { changed, touched } = filesOfCall(info, workspace);
    if (changed.length === 0 && touched.length === 0) return undefined;
    const asked = host
      .runHook("files_changed", { tool_name: info.name, changed, touched })
      .then((reply) => {
        for (const message of reply.notices ?? []) emit({ type: "notice", level: "warn", message });
        return reply;
      })
      .catch((err: unknown) => {
        // The change stands whatever the language servers do; the user hears why there is no report,
        // unless the session is closing its workers anyway.
        if (host.isClosed?.()) return undefined;
        emit({ type: "notice", level: "warn", message: `lsp: ${errorMessage(err)}` });
        return undefined;
      });
    // A file only read is synced in the background (its server starts): the read does not wait for it.
    if (changed.length === 0) return undefined;
    const d = (await asked)?.diagnostics;
    if (!d) return undefined;
    emit({ type: "diagnostics", id: info.id, files: d.files });
    return appended(result, d.text);
  };
}

/** Two afterCall seams one after the other: the second sees the first's result. */
export function chainAfterCall(
  first: AfterCall | undefined,
  second: AfterCall | undefined,
): AfterCall | undefined {
  if (!first || !second) return first ?? second;
  return async (info, result) => {
    const a = await first(info, result);
    const b = await second(info, a ?? result);
    return b ?? a;
  };
}
