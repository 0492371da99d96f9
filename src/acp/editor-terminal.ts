// The client's `terminal/*`, when it offers them, as where bash runs: the command shows in the editor's
// terminal (the tool call's content is that terminal), the model gets its output and exit code as from
// our own bash. A cancel or the timeout kills it; `i`'s credentials are unset in its environment.
import type { AgentContext, ClientCapabilities, TerminalHandle } from "@agentclientprotocol/sdk";
import type { CommandTerminal, TerminalRun } from "../agent/agent-session.ts";

export function editorTerminal(
  client: AgentContext,
  caps: ClientCapabilities | undefined,
  sessionId: () => string,
  shown: (terminalId: string) => void,
): CommandTerminal | undefined {
  if (caps?.terminal !== true) return undefined;
  return {
    async run([command, ...args], opts): Promise<TerminalRun | undefined> {
      let term: TerminalHandle;
      try {
        term = await client.createTerminal({
          sessionId: sessionId(),
          command: command as string,
          args,
          cwd: opts.cwd,
          env: opts.unset.map((name) => ({ name, value: "" })),
          outputByteLimit: opts.outputBytes,
        });
      } catch {
        // the editor could not start it: our own bash runs it
        return undefined;
      }
      shown(term.id);
      let stopped: "timeout" | "abort" | undefined;
      const stop = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          stopped = "timeout";
          resolve();
        }, opts.timeoutMs);
        opts.signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            stopped = "abort";
            resolve();
          },
          { once: true },
        );
      });
      try {
        const exit = await Promise.race([term.waitForExit(), stop.then(() => undefined)]);
        if (!exit) await term.kill().catch(() => {});
        const out = await term.currentOutput();
        const status = exit ?? out.exitStatus ?? {};
        return {
          code: status.exitCode ?? null,
          signal: status.signal ?? (exit ? null : "SIGKILL"),
          output: out.output,
          truncated: out.truncated,
          timedOut: stopped === "timeout",
          aborted: stopped === "abort",
        };
      } finally {
        await term.release().catch(() => {});
      }
    },
  };
}
