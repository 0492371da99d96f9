// A core tool that changes things (write, edit, bash) is written as `prepare`: it works the call out and
// says what would change; whoever runs it asks the approval, then applies. `run` is the same call done in
// one step, asking through ctx.approvals, for callers that hold one tool rather than the dispatch.
import type { z } from "zod";
import type { CoreTool, PreparedCall, ToolContext, ToolResult } from "./types.ts";

/** The approval for `prepared` asked through `ctx`, then the call applied; a refusal is the tool's error. */
export async function approveAndApply(prepared: PreparedCall, ctx: ToolContext): Promise<ToolResult> {
  if (prepared.change) {
    const refused = await ctx.approvals.check(prepared.change.request, prepared.change.command);
    if (refused) return { content: refused, is_error: true };
  }
  return prepared.apply();
}

export function changingTool<S extends z.ZodType>(spec: {
  name: string;
  description: string;
  input: S;
  prepare(args: z.infer<S>, ctx: ToolContext): Promise<PreparedCall>;
  relax?(args: Record<string, unknown>): string[];
}): CoreTool<S> {
  return {
    ...spec,
    mayChange: true,
    run: async (args, ctx) => approveAndApply(await spec.prepare(args, ctx), ctx),
  };
}
