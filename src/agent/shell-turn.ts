// `!command` as a turn of its own: run through the bash tool, checkpointed like a turn's first change
// (so /undo and /rewind treat it as one), its output joining the context for the next message.
import type { ShellOutcome } from "./session-types.ts";
import type { AgentRuntime } from "./setup.ts";
import { runUserCommand } from "./user-command.ts";

export async function runShellTurn(
  rt: AgentRuntime,
  command: string,
  signal: AbortSignal,
  onOutput?: (text: string) => void,
): Promise<ShellOutcome> {
  const started = Date.now();
  let exitCode: number | null | undefined;
  const watch = { output: (t: string) => onOutput?.(t), exit: (c: number | null) => (exitCode = c) };
  // The command may change files: the workspace is checkpointed first, like a turn's first change,
  // and its message carries the same time, so /undo and /rewind treat it as a turn of its own.
  const ts = new Date().toISOString();
  rt.checkpoints.beforeChange(ts);
  try {
    const { result, text, message } = await runUserCommand(command, rt.toolContext, signal, watch);
    const refused = text.startsWith("refused");
    const durationMs = Date.now() - started;
    // Kept with the message, so a resumed session shows the exit and the time as they were.
    const shown = { ...(exitCode !== undefined ? { exit_code: exitCode } : {}), duration_ms: durationMs };
    if (!refused) rt.agent.addUserContext(message, { shell_command: command, ts, ...shown });
    return { text, isError: result.is_error === true, refused, ...shown };
  } finally {
    rt.checkpoints.afterTurn();
  }
}
