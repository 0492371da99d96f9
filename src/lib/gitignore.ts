// A simple reading of the workspace's top-level .gitignore, so searches skip build output and the like.
// Supported: comments, blank lines, `!` negation (last matching rule wins), trailing `/` for directories,
// anchored patterns (containing a slash) and name patterns (no slash: any depth). Nested .gitignore files
// and git's global excludes are not read.
import { join } from "node:path";
import { compileGlob, type PathMatcher } from "./glob.ts";
import { readOptionalText } from "./text-files.ts";

interface Rule {
  match: PathMatcher;
  negate: boolean;
  dirOnly: boolean;
}

/** Directories never searched, whatever .gitignore says. */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

export type IgnoreCheck = (relPath: string, isDir: boolean) => boolean;

export function parseGitignore(text: string): IgnoreCheck {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    if (line === "") continue;
    // A slash at the start or in the middle anchors the pattern to the workspace root.
    const anchored = line.includes("/");
    try {
      rules.push({ match: compileGlob(line, anchored), negate, dirOnly });
    } catch {
      // git itself ignores patterns it cannot parse; so do we.
    }
  }
  return (rel, isDir) => {
    let ignored = false;
    for (const r of rules) {
      if (r.dirOnly && !isDir) continue;
      if (r.negate === ignored && r.match(rel)) ignored = !r.negate;
    }
    return ignored;
  };
}

export function loadIgnore(realRoot: string): IgnoreCheck {
  let text: string | undefined;
  try {
    text = readOptionalText(join(realRoot, ".gitignore"));
  } catch {
    text = undefined;
  }
  const fromFile = text === undefined ? () => false : parseGitignore(text);
  return (rel, isDir) => {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    return (isDir && ALWAYS_SKIPPED.has(name)) || fromFile(rel, isDir);
  };
}
