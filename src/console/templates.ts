// Prompt templates as slash commands: `/NAME args` sends the template (loaded by the session:
// AgentSession.promptTemplates) with its arguments filled in.

import type { PromptTemplate } from "../agent/agent-session.ts";
import { substituteWorkspace } from "../lib/text-files.ts";

/** Split arguments like a shell would for simple cases: spaces separate, quotes group. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/**
 * The message a template produces: `$ARGUMENTS` / `$@` become all arguments, `$1`…`$9` each one; a
 * template without placeholders gets the arguments appended after a blank line.
 */
export function expandTemplate(t: PromptTemplate, args: string, workspace: string): string {
  const body = substituteWorkspace(t.body, workspace).trimEnd();
  const all = args.trim();
  const positional = splitArgs(all);
  if (!/\$(ARGUMENTS|@|[1-9])/.test(body)) return all ? `${body}\n\n${all}` : body;
  return body
    .replaceAll("$ARGUMENTS", all)
    .replaceAll("$@", all)
    .replace(/\$([1-9])/g, (_, n: string) => positional[Number(n) - 1] ?? "");
}
