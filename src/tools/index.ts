// The core tools (read, write, edit, bash): mandatory, not replaceable, run in the core process.
// runCoreTool is the one entry point: whatever the model sends, it returns a ToolResult and never throws.
import type { z } from "zod";
import { toolDecl } from "../contract/registry.ts";
import { truncateMiddle } from "../lib/truncate.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";
import { ToolError } from "./tool-error.ts";
import type { CoreTool, ToolContext, ToolDecl, ToolResult } from "./types.ts";
import { writeTool } from "./write.ts";

export const CORE_TOOLS: readonly CoreTool[] = [readTool, writeTool, editTool, bashTool] as CoreTool[];
export const CORE_TOOL_NAMES: readonly string[] = CORE_TOOLS.map((t) => t.name);

/**
 * Last line of defence for the history: no text result, whatever the tool, grows past this. The tools
 * cap their own output well below it, with better notes.
 */
export const MAX_RESULT_BYTES = 320 * 1024;

export function coreToolDecls(): ToolDecl[] {
  return CORE_TOOLS.map(toolDecl);
}

function describeArgsError(tool: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join(".") : "arguments";
    if (issue.code === "unrecognized_keys")
      return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    return `${where}: ${issue.message}`;
  });
  return `invalid arguments for ${tool}: ${parts.join("; ")}`;
}

function capResult(r: ToolResult): ToolResult {
  const advice = "the result was too large for the conversation; ask for less at a time";
  if (typeof r.content === "string")
    return { ...r, content: truncateMiddle(r.content, MAX_RESULT_BYTES, advice) };
  return {
    ...r,
    content: r.content.map((p) =>
      p.type === "text" ? { ...p, text: truncateMiddle(p.text, MAX_RESULT_BYTES, advice) } : p,
    ),
  };
}

/**
 * Run core tool `name` with the raw JSON arguments the model produced. A model mistake (unknown tool,
 * malformed JSON, arguments not matching the schema) and any failure of the tool itself come back as an
 * is_error result with a message the model can act on.
 */
export async function runCoreTool(name: string, rawArguments: string, ctx: ToolContext): Promise<ToolResult> {
  const tool = CORE_TOOLS.find((t) => t.name === name);
  if (!tool) {
    return {
      content: `unknown tool "${name}"; the core tools are ${CORE_TOOL_NAMES.join(", ")}`,
      is_error: true,
    };
  }
  let parsed: unknown;
  try {
    parsed = rawArguments.trim() === "" ? {} : JSON.parse(rawArguments);
  } catch (err) {
    return {
      content: `the arguments for ${name} are not valid JSON (${(err as Error).message}); send one JSON object`,
      is_error: true,
    };
  }
  const args = tool.input.safeParse(parsed);
  if (!args.success) return { content: describeArgsError(name, args.error), is_error: true };
  try {
    return capResult(await tool.run(args.data, ctx));
  } catch (err) {
    if (err instanceof ToolError) return { content: err.message, is_error: true };
    const e = err as NodeJS.ErrnoException;
    return { content: `${name} failed: ${e?.message ?? String(err)}`, is_error: true };
  }
}
