// Tab completion: slash commands at the start of the input, `@` paths anywhere. Paths are completed inside
// the workspace only (resolved like the file tools' paths), skipping .git, node_modules and what the
// workspace's .gitignore ignores.
import { readdirSync, statSync } from "node:fs";
import { loadIgnore } from "../../lib/gitignore.ts";
import { resolveInWorkspace } from "../../tools/paths.ts";

export interface Completion {
  /** the range of the text the chosen candidate replaces */
  from: number;
  to: number;
  /** full replacements, sorted; one means "complete it" */
  candidates: string[];
}

export const MAX_PATH_CANDIDATES = 200;

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

/** Directory entries matching `partial` (a workspace-relative path being typed), directories with "/". */
export function pathCandidates(workspace: string, partial: string): string[] {
  const slash = partial.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : partial.slice(0, slash + 1);
  const namePart = partial.slice(slash + 1);
  let dirReal: string;
  try {
    dirReal = resolveInWorkspace(workspace, dirPart === "" ? "." : dirPart);
  } catch {
    return []; // outside the workspace (or through a link that leads out): nothing to offer
  }
  const root = resolveInWorkspace(workspace, ".");
  const ignored = loadIgnore(root);
  const relDir =
    dirReal === root
      ? ""
      : dirReal
          .slice(root.length + 1)
          .split("\\")
          .join("/");
  let entries: { name: string; dir: boolean }[];
  try {
    entries = readdirSync(dirReal, { withFileTypes: true }).flatMap((e) => {
      if (!e.isSymbolicLink()) return [{ name: e.name, dir: e.isDirectory() }];
      // A link is offered only when it stays inside the workspace, as what it points to.
      try {
        const target = resolveInWorkspace(workspace, `${dirPart}${e.name}`);
        return [{ name: e.name, dir: statSync(target).isDirectory() }];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.startsWith(namePart))
    .filter((e) => namePart.startsWith(".") || !e.name.startsWith("."))
    .filter((e) => !ignored(relDir === "" ? e.name : `${relDir}/${e.name}`, e.dir))
    .map((e) => `${dirPart}${e.name}${e.dir ? "/" : ""}`)
    .sort()
    .slice(0, MAX_PATH_CANDIDATES);
}

function mentionCompletion(text: string, cursor: number, workspace: string): Completion | undefined {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@(\S*)$/.exec(before);
  if (!m) return undefined;
  const partial = m[2] ?? "";
  const from = cursor - partial.length;
  const rest = /^\S*/.exec(text.slice(cursor))?.[0] ?? "";
  return { from, to: cursor + rest.length, candidates: pathCandidates(workspace, partial) };
}

export function complete(
  text: string,
  cursor: number,
  ctx: { commands: string[]; workspace: string },
): Completion | undefined {
  return slashCompletion(text, cursor, ctx.commands) ?? mentionCompletion(text, cursor, ctx.workspace);
}
