// The workspace paths Tab offers for a partial `@path`: inside the workspace only (resolved like the file
// tools' paths), skipping .git, node_modules and what the workspace's .gitignore ignores.
import { readdirSync, statSync } from "node:fs";
import { loadIgnore } from "../lib/gitignore.ts";
import { resolveInWorkspace } from "../tools/paths.ts";

export const MAX_PATH_CANDIDATES = 200;

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
