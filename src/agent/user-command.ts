// `!command`: the user runs a shell command directly, through the bash tool (same sandbox, environment
// without credentials, timeout and output cap). Typing it is the approval under `ask`; a read-only session
// (`--approve none`) refuses it like any command. Its output joins the context as the user's own message.

import { contentWithImageMarkers } from "../contract/history.ts";
import { Approvals } from "../tools/approvals.ts";
import { runCoreTool } from "../tools/index.ts";
import type { ToolContext, ToolResult } from "../tools/types.ts";

export async function runUserCommand(
  command: string,
  ctx: Omit<ToolContext, "signal">,
  signal: AbortSignal,
  /** the command's output as it arrives, and its exit code (null: killed) */
  watch?: { output(text: string): void; exit(code: number | null): void },
): Promise<{ result: ToolResult; text: string; message: string }> {
  const approvals = new Approvals({ policy: ctx.approvals.policy === "none" ? "none" : "all" });
  const report: ToolContext["report"] = watch
    ? (r) => {
        if (r.kind === "output") watch.output(r.text);
        else if (r.kind === "exit") watch.exit(r.code);
      }
    : undefined;
  const result = await runCoreTool("bash", JSON.stringify({ command }), {
    ...ctx,
    approvals,
    // Typed by the user: the guard does not ask again, but git state is still recorded for /undo.
    guard: { ...ctx.guard, allowDestructive: true },
    signal,
    ...(report ? { report } : {}),
  });
  const text = contentWithImageMarkers(result.content);
  const message = `I ran this shell command myself (not a request; its output is for your context):\n$ ${command}\n${text}`;
  return { result, text, message };
}
