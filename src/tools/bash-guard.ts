// The guard's place in the bash tool: each command is classified (the parser loads on the first call)
// before the approval question, which a destructive command gets even under "allow all". What the
// user opted into (--allow-destructive, exact commands and paths in config.json's `guard`) is not asked
// again; what the guard cannot read is left to the sandbox, and asked about when the sandbox is off.
import { homedir } from "node:os";
import { errorMessage } from "../contract/errors.ts";
import type { ToolContext } from "./types.ts";

export interface GuardCheck {
  /** why the command needs the user's own yes (absent: the ordinary policy decides) */
  reason?: string;
  /** a git command that loses work in this repository: its state is recorded before it runs */
  git?: string;
}

/** What the guard says of `command` run in `cwd` (absolute, real). */
export async function guardCheck(command: string, cwd: string, ctx: ToolContext): Promise<GuardCheck> {
  const g = ctx.guard ?? {};
  let verdict: Awaited<ReturnType<typeof import("./guard/classify.ts").classifyCommand>>;
  try {
    const { classifyCommand, tempDirs } = await import("./guard/classify.ts");
    verdict = await classifyCommand(command, {
      workspace: ctx.workspace,
      cwd,
      home: homedir(),
      temp: [...tempDirs(), ...(g.allowPaths ?? [])],
    });
  } catch (err) {
    verdict = { kind: "unknown", reason: `the guard's shell parser could not run (${errorMessage(err)})` };
  }
  if (verdict.kind === "ok") return {};
  const optedIn = g.allowDestructive === true || g.allowed?.(command) === true;
  if (verdict.kind === "flagged") {
    const git = verdict.git ? { git: verdict.git } : {};
    return optedIn ? git : { reason: verdict.reason, ...git };
  }
  // Unknown: the sandbox judges it; without one it is the user's call.
  if (ctx.sandbox || optedIn) return {};
  return { reason: `${verdict.reason}, and the sandbox is off` };
}
