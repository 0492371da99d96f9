// A module tool in one call: `defineTool(module, name, run)` takes the declaration and the argument schema
// from the module registry (never a copy, so a worker cannot drift from what the core checks at hello) and
// hands `run` arguments already parsed. Tool arguments come from the model, so they are untrusted: a bad
// call is answered with a tool error the model can act on, instead of failing the request.
import type { z } from "zod";
import { describeIssue } from "../../src/contract/errors.ts";
import type { ToolDecl, ToolResult } from "../../src/contract/protocol.ts";
import {
  MODULES,
  type ModuleName,
  TOOL_INPUTS,
  type ToolInput,
  type ToolName,
  toolDecl,
} from "../../src/contract/registry.ts";
import { type ModuleTool, type ToolContext, toolError } from "./module.ts";

export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; error: ToolResult };

/** `args` parsed by `schema`, or a tool error naming the tool, the field and what was expected. */
export function parseToolArgs<S extends z.ZodType>(
  tool: string,
  schema: S,
  args: unknown,
): ParsedArgs<z.infer<S>> {
  const r = schema.safeParse(args ?? {});
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, error: toolError(describeIssue(`${tool}: invalid arguments`, r.error)) };
}

/** The registry's declaration of `tool` (required or optional) for `module`; throws if it has none. */
export function registryToolDecl(module: ModuleName, tool: string): ToolDecl {
  const spec = [...MODULES[module].tools, ...(MODULES[module].optionalTools ?? [])].find(
    (t) => t.name === tool,
  );
  if (!spec) throw new Error(`the module registry declares no tool "${tool}" for ${module}`);
  return toolDecl(spec);
}

/** A tool of `module` whose declaration and argument schema come from the registry. */
export function defineTool<N extends ToolName>(
  module: ModuleName,
  name: N,
  run: (args: ToolInput<N>, ctx: ToolContext) => ToolResult | Promise<ToolResult>,
): ModuleTool {
  const decl = registryToolDecl(module, name);
  // TypeScript cannot narrow an indexed access by a generic key; TOOL_INPUTS[N] is exactly this schema.
  const schema = TOOL_INPUTS[name] as unknown as z.ZodType<ToolInput<N>>;
  return {
    decl,
    run: (args, ctx) => {
      const parsed = parseToolArgs(name, schema, args);
      return parsed.ok ? run(parsed.value, ctx) : parsed.error;
    },
  };
}
