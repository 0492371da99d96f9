// The core tools as the dispatch sees them: zod-declared, run in this process, bounded as trusted output.
import { toolDecl } from "../contract/registry.ts";
import { checkArguments, forgiveArguments } from "./arguments.ts";
import type { DispatchTool, ToolAdapter } from "./dispatch.ts";
import type { CoreTool } from "./types.ts";

function coreDispatchTool(tool: CoreTool): DispatchTool {
  const decl = toolDecl(tool);
  return {
    decl,
    kind: "core",
    owner: "core",
    mayChange: tool.mayChange === true,
    bound: "core",
    check(args) {
      const read = forgiveArguments(tool.name, decl.input_schema, args);
      const { value } = read;
      const notes = [...read.notes];
      if (tool.relax && typeof value === "object" && value !== null && !Array.isArray(value))
        notes.push(...tool.relax(value as Record<string, unknown>));
      return checkArguments(tool.name, tool.input, value, notes, true);
    },
    prepare: async (args, ctx) =>
      tool.prepare ? tool.prepare(args, ctx) : { apply: () => tool.run(args, ctx) },
  };
}

/** An adapter for `tools` (the core tools, or the subset a run offers). */
export function coreToolAdapter(tools: readonly CoreTool[]): ToolAdapter {
  const list = tools.map(coreDispatchTool);
  return { tools: () => list };
}
