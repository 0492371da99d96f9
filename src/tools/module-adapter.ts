// Module tools as the dispatch sees them: fixed declarations from the workers (checked against the module
// registry at hello), answered by the worker that owns them. None of the registry's module tools writes
// to the workspace.
import type { ToolAdapter } from "./dispatch.ts";
import { externalDispatchTool } from "./external-tool.ts";
import type { ToolDecl, ToolResult } from "./types.ts";

/** What the dispatch needs of the worker runtime (the WorkerHost is one). */
export interface ModuleTools {
  toolDecls(): ToolDecl[];
  callTool(name: string, args: unknown, callId: string): Promise<ToolResult>;
}

export function moduleToolAdapter(host: ModuleTools): ToolAdapter {
  return {
    tools: () =>
      host.toolDecls().map((d) =>
        externalDispatchTool(d, {
          kind: "module",
          owner: "module",
          mayChange: false,
          call: (args, callId) => host.callTool(d.name, args, callId),
        }),
      ),
  };
}
