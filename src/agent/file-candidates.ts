// The workspace files the console's `@` menu offers for a query, fuzzy-matched: the query's characters in
// order anywhere in the path, a match in the file name and a run of adjacent characters ranked first.
// The walk skips .git, node_modules and what .gitignore ignores, stays inside the workspace (links are not
// followed), and is bounded; it is kept a few seconds, so typing does not walk the tree at every key.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ALWAYS_SKIPPED, loadIgnore } from "../lib/gitignore.ts";

export const MAX_WALKED = 20_000;
export const MAX_FILE_CANDIDATES = 50;
const KEEP_MS = 3000;

let cached: { root: string; at: number; paths: string[] } | undefined;

/** Workspace-relative paths (directories with a trailing "/"), breadth first, bounded. */
function walk(root: string): string[] {
  const ignored = loadIgnore(root);
  const out: string[] = [];
  const queue = [""];
  while (queue.length > 0 && out.length < MAX_WALKED) {
    const rel = queue.shift() as string;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (ALWAYS_SKIPPED.has(e.name) || e.name.startsWith(".")) continue;
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      const dir = e.isDirectory();
      if (!dir && !e.isFile()) continue;
      if (ignored(path, dir)) continue;
      out.push(dir ? `${path}/` : path);
      if (dir) queue.push(path);
      if (out.length >= MAX_WALKED) break;
    }
  }
  return out;
}

/** How well `query` matches `path` (higher is better); undefined when its characters are not all in order. */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  const p = path.toLowerCase();
  if (q === "") return 0;
  let at = 0;
  let score = 0;
  let run = 0;
  const nameStart = p.replace(/\/$/, "").lastIndexOf("/") + 1;
  for (const ch of q) {
    const i = p.indexOf(ch, at);
    if (i < 0) return undefined;
    run = i === at ? run + 1 : 0;
    score += 1 + run * 2 + (i >= nameStart ? 2 : 0) + (i === 0 || p[i - 1] === "/" ? 3 : 0);
    at = i + 1;
  }
  if (p.startsWith(q)) score += 20;
  return score - path.length / 100;
}

/** The best matches of `query` among the workspace's files and directories. */
export function fileCandidates(workspace: string, query: string, now = Date.now()): string[] {
  if (!cached || cached.root !== workspace || now - cached.at > KEEP_MS)
    cached = { root: workspace, at: now, paths: walk(workspace) };
  const scored: Array<[string, number]> = [];
  for (const path of cached.paths) {
    const s = fuzzyScore(query, path);
    if (s !== undefined) scored.push([path, s]);
  }
  scored.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, MAX_FILE_CANDIDATES).map(([p]) => p);
}
