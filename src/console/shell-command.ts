// `!command` typed at the console: run by the session (AgentSession.runShell), its output shown here.
import type { ShellOutcome } from "../agent/agent-session.ts";
import type { ConsoleUi } from "./ports.ts";
import { formatElapsed } from "./ui/components.ts";

/** `!cmd` → "cmd"; undefined for anything else (`!` alone is not a command). */
export function parseBang(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith("!")) return undefined;
  const cmd = t.slice(1).trim();
  return cmd === "" ? undefined : cmd;
}

/** Output lines a `!command` shows at most; a failed or killed one shows its last (where errors are). */
export const SHELL_SHOWN_LINES = 40;

const EXIT_NOTE = /\n?\[exit code -?\d+\]\s*$/;

/** How a finished `!command` is shown: its output behind a gutter, then exit status and time. */
export function shellResultLines(out: ShellOutcome, ui: ConsoleUi): string[] {
  const failed = out.isError || (out.exit_code !== undefined && out.exit_code !== 0);
  const lines = out.text.replace(EXIT_NOTE, "").replace(/\n+$/, "").split("\n");
  const over = lines.length - SHELL_SHOWN_LINES;
  const shown =
    over > 0 ? (failed ? lines.slice(-SHELL_SHOWN_LINES) : lines.slice(0, SHELL_SHOWN_LINES)) : lines;
  const gutter = failed ? ui.red("│") : ui.dim("│");
  const body = shown.map((l) => `  ${gutter} ${ui.clean(l)}`);
  const more =
    over > 0
      ? [ui.dim(`  … ${over} ${failed ? "earlier" : "more"} lines (all of it is in the context)`)]
      : [];
  if (out.refused) return body;
  const code = out.exit_code;
  const status =
    code === undefined
      ? ""
      : code === 0
        ? "exit 0"
        : code === null
          ? ui.red("killed")
          : ui.red(`exit ${code}`);
  const took = formatElapsed(out.duration_ms);
  return [
    ...(failed ? [...more, ...body] : [...body, ...more]),
    `  ${ui.dim("⎿")} ${status ? `${status} ` : ""}${ui.dim(`· ${took} · the output is in the context for the next message`)}`,
  ];
}
