// Tool arguments come from the model, so they are untrusted: every tool parses them with the registry's zod
// schema (the same one its public declaration is generated from) and answers a bad call with a tool error
// the model can act on, instead of failing the request.
import type { z } from "zod";
import type { ToolResult } from "../../src/contract/protocol.ts";
import { toolError } from "./module.ts";

export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; error: ToolResult };

export function parseToolArgs<S extends z.ZodType>(
  tool: string,
  schema: S,
  args: unknown,
): ParsedArgs<z.infer<S>> {
  const r = schema.safeParse(args ?? {});
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (field ${issue.path.join(".")})` : "";
  return {
    ok: false,
    error: toolError(`${tool}: invalid arguments${where}: ${issue?.message ?? "invalid"}`),
  };
}
