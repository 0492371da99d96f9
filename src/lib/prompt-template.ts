// Prompt templates as slash commands: what a template is and the message `/NAME args` makes of it. Shared
// by every front end (the console, `i acp`) so a template expands the same wherever it is typed; finding
// the templates is the session's (AgentSession.promptTemplates).
import { substituteWorkspace } from "./text-files.ts";

export interface PromptTemplate {
  name: string;
  /** where it was read from */
  path: string;
  /** its front matter's `description`, else the body's first line: its one line of help */
  description: string;
  /** how its arguments are written (front matter `argument-hint`), e.g. "[file] [focus]" */
  argumentHint?: string;
  /** the model its message is sent to (front matter `model`); the session's own model otherwise */
  model?: string;
  /** the message, front matter removed */
  body: string;
}

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
