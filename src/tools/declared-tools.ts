// Tools a module declares at run time (an MCP server's tools, for one): each is "a tool declared by module
// M with its own per-call deadline". The owner supplies declarations and a way to call them; the dispatch
// does the rest (arguments checked against the declared JSON Schema, the untrusted-output cap, events,
// seams), as for every tool. An owner's set is replaced whole when it changes, and withdrawn when it goes.
import type { ApprovalRequest } from "./approvals.ts";
import type { DispatchTool, ToolAdapter } from "./dispatch.ts";
import { externalDispatchTool } from "./external-tool.ts";
import type { ToolDecl, ToolReport, ToolResult } from "./types.ts";

export interface DeclaredTool {
  decl: ToolDecl;
  /** a call that gives no result by then is stopped (its signal aborts) and answered with an error */
  deadlineMs: number;
  /** it may change files in the workspace (unknown: say true) */
  mayChange: boolean;
  call(
    args: unknown,
    opts: { callId: string; signal: AbortSignal; report?: (r: ToolReport) => void },
  ): Promise<ToolResult>;
  /** the approval a call needs (an MCP server's tool is approved like bash), or undefined for none */
  approval?: (args: unknown) => ApprovalRequest | undefined;
}

export class DeclaredTools implements ToolAdapter {
  private readonly byOwner = new Map<string, DispatchTool[]>();
  private list: DispatchTool[] = [];
  /** the declarations of `list`, made once per change: the same array every request while none comes */
  private declList: ToolDecl[] | undefined;

  /** `owner`'s tools are now `tools` (replacing what it declared before). */
  declare(owner: string, tools: readonly DeclaredTool[]): void {
    this.byOwner.set(
      owner,
      tools.map((t) =>
        externalDispatchTool(t.decl, {
          kind: "declared",
          owner,
          mayChange: t.mayChange,
          deadlineMs: t.deadlineMs,
          call: (args, callId, signal, report) =>
            t.call(args, { callId, signal, ...(report ? { report } : {}) }),
          ...(t.approval ? { approval: t.approval } : {}),
        }),
      ),
    );
    this.list = [...this.byOwner.values()].flat();
    this.declList = undefined;
  }

  /** `owner` offers no tools any more. */
  withdraw(owner: string): void {
    this.byOwner.delete(owner);
    this.list = [...this.byOwner.values()].flat();
    this.declList = undefined;
  }

  tools(): readonly DispatchTool[] {
    return this.list;
  }

  /** The declarations, one array per change (callers may cache what they make of it by identity). */
  decls(): readonly ToolDecl[] {
    this.declList ??= this.list.map((t) => t.decl);
    return this.declList;
  }
}
