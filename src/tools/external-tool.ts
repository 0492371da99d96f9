// A tool answered outside this process (a module's worker, a run-time declared tool): untrusted, so a
// cancel does not wait for it — the turn ends now and a late reply is dropped — and, with a deadline, a
// call that does not answer in time is given up on. The `signal` handed to the call aborts in both cases,
// so the side answering it can be told to stop. Its arguments are checked against its JSON Schema, and
// it receives them as read (aliases renamed, unknown ones dropped), never rewritten by the check.
import { errorMessage } from "../contract/errors.ts";
import type { ApprovalRequest } from "./approvals.ts";
import { checkArguments, forgiveArguments, jsonSchemaValidator } from "./arguments.ts";
import type { DispatchTool } from "./dispatch.ts";
import type { ToolDecl, ToolReport, ToolResult } from "./types.ts";

export interface ExternalCallOptions {
  /** the turn's abort signal */
  signal?: AbortSignal | undefined;
  /** give up after this long */
  deadlineMs?: number;
  /** how the deadline's error names the tool's owner ("from NAME") */
  owner?: string;
}

export async function callExternal(
  name: string,
  run: (signal: AbortSignal) => Promise<ToolResult>,
  opts: ExternalCallOptions,
): Promise<ToolResult> {
  const cancelled: ToolResult = {
    content: `cancelled by the user while ${name} ran; whatever it returns later is discarded`,
    is_error: true,
  };
  if (opts.signal?.aborted) return cancelled;
  const local = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<"cancelled" | "deadline">((resolve) => {
    onAbort = () => resolve("cancelled");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.deadlineMs !== undefined) timer = setTimeout(() => resolve("deadline"), opts.deadlineMs);
  });
  try {
    const r = await Promise.race([run(local.signal), stopped]);
    if (r === "cancelled") return cancelled;
    if (r === "deadline") {
      const from = opts.owner ? ` (from ${opts.owner})` : "";
      const ms = opts.deadlineMs ?? 0;
      const within = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
      return {
        content: `${name}${from} gave no result within ${within}, so it was stopped; whatever it returns later is discarded`,
        is_error: true,
      };
    }
    return r;
  } catch (err) {
    if (opts.signal?.aborted) return cancelled;
    return { content: `tool ${name} failed: ${errorMessage(err)}`, is_error: true };
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) opts.signal?.removeEventListener("abort", onAbort);
    local.abort();
  }
}

export interface ExternalToolSpec {
  kind: "module" | "declared";
  owner: string;
  mayChange: boolean;
  /** `report`: what the tool shows while it runs (its progress), when someone watches */
  call(
    args: unknown,
    callId: string,
    signal: AbortSignal,
    report?: (r: ToolReport) => void,
  ): Promise<ToolResult>;
  deadlineMs?: number;
  /** the approval a call needs (asked by the dispatch like bash's), or undefined when it needs none */
  approval?: (args: unknown) => ApprovalRequest | undefined;
}

export function externalDispatchTool(decl: ToolDecl, spec: ExternalToolSpec): DispatchTool {
  return {
    decl,
    kind: spec.kind,
    owner: spec.owner,
    mayChange: spec.mayChange,
    bound: "untrusted",
    check(args) {
      const read = forgiveArguments(decl.name, decl.input_schema, args);
      return checkArguments(decl.name, jsonSchemaValidator(decl.input_schema), read.value, read.notes, false);
    },
    prepare: async (args, ctx, callId) => {
      const opts: ExternalCallOptions = { signal: ctx.signal, owner: spec.owner };
      if (spec.deadlineMs !== undefined) opts.deadlineMs = spec.deadlineMs;
      const request = spec.approval?.(args);
      return {
        ...(request ? { change: { request } } : {}),
        apply: () => callExternal(decl.name, (signal) => spec.call(args, callId, signal, ctx.report), opts),
      };
    },
  };
}
