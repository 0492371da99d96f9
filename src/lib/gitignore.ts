// Which paths searches skip, read the way git and ripgrep read ignore files: every directory's
// .gitignore (and .ignore, ripgrep's own) applies to the paths below it, a deeper file's rules win over a
// shallower one's, and within a file the last matching rule wins. Supported: comments, blank lines, `!`
// negation, trailing `/` for directories, anchored patterns (a slash at the start or in the middle,
// relative to the file's directory) and name patterns (no slash: any depth below it). A directory that
// is ignored is not entered, so nothing under it can be re-included, as in git. git's global excludes
// are not read.
import { join } from "node:path";
import { compileIgnorePattern, type PatternTest } from "./glob.ts";
import { readOptionalText } from "./text-files.ts";

interface Rule {
  match: PatternTest;
  negate: boolean;
  dirOnly: boolean;
}

/** Directories never searched, whatever the ignore files say. */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
/** The ignore files of a directory, the later one's rules over the earlier's. */
export const IGNORE_FILES = [".gitignore", ".ignore"];

export type IgnoreCheck = (relPath: string, isDir: boolean) => boolean;
/** true: ignored, false: re-included by a `!` rule, undefined: no rule says */
type Verdict = (relPath: string, isDir: boolean) => boolean | undefined;

function parseRules(text: string): Rule[] {
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
    // A slash at the start or in the middle anchors the pattern to the file's directory.
    const anchored = line.includes("/");
    try {
      rules.push({ match: compileIgnorePattern(line, anchored), negate, dirOnly });
    } catch {
      // git itself ignores patterns it cannot parse; so do we.
    }
  }
  return rules;
}

function verdictOf(rules: Rule[]): Verdict {
  return (rel, isDir) => {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    for (let i = rules.length - 1; i >= 0; i--) {
      const r = rules[i] as Rule;
      if (r.dirOnly && !isDir) continue;
      if (r.match.test(r.match.onName ? name : rel)) return !r.negate;
    }
    return undefined;
  };
}

/** One ignore file's rules, paths relative to its directory. */
export function parseGitignore(text: string): IgnoreCheck {
  const v = verdictOf(parseRules(text));
  return (rel, isDir) => v(rel, isDir) === true;
}

/**
 * The ignore check for a tree rooted at `realRoot`: each directory's ignore files are read the first time
 * a path below it is checked, once.
 */
export function loadIgnore(realRoot: string): IgnoreCheck {
  const levels = new Map<string, Verdict | null>();
  const level = (dir: string): Verdict | null => {
    const known = levels.get(dir);
    if (known !== undefined) return known;
    const rules: Rule[] = [];
    for (const name of IGNORE_FILES) {
      let text: string | undefined;
      try {
        text = readOptionalText(join(realRoot, dir, name));
      } catch {
        text = undefined;
      }
      if (text !== undefined) rules.push(...parseRules(text));
    }
    const v = rules.length > 0 ? verdictOf(rules) : null;
    levels.set(dir, v);
    return v;
  };
  return (rel, isDir) => {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    if (isDir && ALWAYS_SKIPPED.has(name)) return true;
    // From the deepest directory up: the nearest file with a rule for the path decides.
    for (let cut = rel.lastIndexOf("/"); ; cut = rel.lastIndexOf("/", cut - 1)) {
      const dir = cut <= 0 ? "" : rel.slice(0, cut);
      const v = level(dir);
      const said = v?.(cut <= 0 ? rel : rel.slice(cut + 1), isDir);
      if (said !== undefined) return said;
      if (cut <= 0) return false;
    }
  };
}
