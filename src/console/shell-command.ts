// `!command` typed at the console: run by the session (AgentSession.runShell), its output shown here.

/** `!cmd` → "cmd"; undefined for anything else (`!` alone is not a command). */
export function parseBang(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith("!")) return undefined;
  const cmd = t.slice(1).trim();
  return cmd === "" ? undefined : cmd;
}
