// The core tools (read, write, edit, bash): mandatory, not replaceable, run in the core process.
// runCoreTool runs one of them through the tool dispatch, for callers without a turn (the console's
// `!command`): whatever the model sends, it returns a ToolResult and never throws.
import { adoptToolSchemas, toolDecl } from "../contract/registry.ts";
import { applyPatchTool } from "./apply-patch.ts";
import { bashTool } from "./bash.ts";
import { coreToolAdapter } from "./core-adapter.ts";
import { ToolDispatch } from "./dispatch.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";
import type { CoreTool, ToolContext, ToolDecl, ToolResult } from "./types.ts";
import { writeTool } from "./write.ts";

export { MAX_RESULT_BYTES } from "./output-cap.ts";

export const CORE_TOOLS: readonly CoreTool[] = [
  readTool,
  writeTool,
  editTool,
  bashTool,
  applyPatchTool,
] as CoreTool[];
export const CORE_TOOL_NAMES: readonly string[] = CORE_TOOLS.map((t) => t.name);
adoptToolSchemas(CORE_TOOLS);

/**
 * The core tools offered to a model: apply_patch instead of edit and write for models the table says
 * were trained on it (`edit_tool`), edit and write for every other.
 */
export function coreToolsFor(editTool: "edit" | "apply_patch" | undefined): readonly CoreTool[] {
  const skip = editTool === "apply_patch" ? ["edit", "write"] : ["apply_patch"];
  return CORE_TOOLS.filter((t) => !skip.includes(t.name));
}

export function coreToolDecls(editTool?: "edit" | "apply_patch"): ToolDecl[] {
  return coreToolsFor(editTool).map(toolDecl);
}

/**
 * Run core tool `name` with the raw JSON arguments the model produced. A model mistake (unknown tool,
 * malformed JSON, arguments not matching the schema) and any failure of the tool itself come back as an
 * is_error result with a message the model can act on.
 */
export async function runCoreTool(name: string, rawArguments: string, ctx: ToolContext): Promise<ToolResult> {
  if (!CORE_TOOL_NAMES.includes(name)) {
    return {
      content: `unknown tool "${name}"; the core tools are ${CORE_TOOL_NAMES.join(", ")}`,
      is_error: true,
    };
  }
  const { signal, report, ...base } = ctx;
  const dispatch = new ToolDispatch({ adapters: [coreToolAdapter(CORE_TOOLS)], ctx: base, emit: () => {} });
  return dispatch.turn(signal).execute({ id: "", name, arguments: rawArguments }, report);
}
