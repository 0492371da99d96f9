// Tab completion: slash commands at the start of the input, `@` paths anywhere. The paths on offer come
// from the session (AgentSession.completePath: inside the workspace only, .gitignore'd noise skipped).

export interface Completion {
  /** the range of the text the chosen candidate replaces */
  from: number;
  to: number;
  /** full replacements, sorted; one means "complete it" */
  candidates: string[];
}

/** The longest common prefix of the candidates (what one Tab inserts when there are several). */
export function commonPrefix(list: string[]): string {
  if (list.length === 0) return "";
  let p = list[0] as string;
  for (const s of list) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}

function slashCompletion(text: string, cursor: number, commands: string[]): Completion | undefined {
  if (!text.startsWith("/")) return undefined;
  const space = text.search(/\s/);
  const end = space === -1 ? text.length : space;
  if (cursor > end) return undefined;
  const typed = text.slice(0, cursor);
  const candidates = commands
    .map((c) => `/${c}`)
    .filter((c) => c.startsWith(typed))
    .sort();
  return { from: 0, to: end, candidates };
}

/** What completion offers: the command names, and the paths matching a partial one. */
export interface CompletionSource {
  commands: string[];
  paths(partial: string): string[];
}

function mentionCompletion(
  text: string,
  cursor: number,
  paths: CompletionSource["paths"],
): Completion | undefined {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@(\S*)$/.exec(before);
  if (!m) return undefined;
  const partial = m[2] ?? "";
  const from = cursor - partial.length;
  const rest = /^\S*/.exec(text.slice(cursor))?.[0] ?? "";
  return { from, to: cursor + rest.length, candidates: paths(partial) };
}

export function complete(text: string, cursor: number, ctx: CompletionSource): Completion | undefined {
  return slashCompletion(text, cursor, ctx.commands) ?? mentionCompletion(text, cursor, ctx.paths);
}
