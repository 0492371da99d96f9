// Glob patterns over workspace-relative paths with forward slashes: `*` and `?` stay within one path
// segment, `**` spans segments, `[abc]` / `[!abc]` are character classes and `{a,b}` alternatives.
// A pattern without a slash matches the file name at any depth (so `*.ts` finds every TypeScript file).

const SPECIAL = /[\\^$.|+()[\]{}*?]/;

function escapeChar(c: string): string {
  return SPECIAL.test(c) ? `\\${c}` : c;
}

/** The regular expression source for `glob`, matching a whole path. Throws on an unclosed `[` or `{`. */
function translate(glob: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        let j = i + 2;
        while (glob[j] === "*") j++;
        if (atStart && glob[j] === "/") {
          out += "(?:[^/]*/)*"; // `**/`: zero or more whole directories
          i = j;
        } else if (atStart && j === glob.length) {
          out += ".*"; // trailing `**`: everything below
          i = j - 1;
        } else {
          out += "[^/]*"; // `**` inside a segment is just `*`
          i = j - 1;
        }
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) throw new Error(`unclosed "[" in glob "${glob}"`);
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/\//g, "")}]`;
      i = end;
    } else if (c === "{") {
      depth++;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else if (c === "\\" && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1] as string);
      i++;
    } else out += escapeChar(c);
  }
  if (depth > 0) throw new Error(`unclosed "{" in glob "${glob}"`);
  return out;
}

export type PathMatcher = (relPath: string) => boolean;

const GLOB_SPECIAL = /[*?[{\\]/;

/** A compiled pattern: `test` takes the file name when `onName`, else the whole relative path. */
export interface PatternTest {
  onName: boolean;
  test: (s: string) => boolean;
}

/** Plain names and `*.ext` are tested without a regular expression (most ignore rules are such). */
function patternTest(g: string, onName: boolean): PatternTest {
  if (!GLOB_SPECIAL.test(g)) return { onName, test: (s) => s === g };
  if (onName && g.startsWith("*") && !GLOB_SPECIAL.test(g.slice(1))) {
    const tail = g.slice(1);
    return { onName, test: (s) => s.endsWith(tail) };
  }
  const re = new RegExp(`^${translate(g)}$`);
  return { onName, test: (s) => re.test(s) };
}

function matcherFor(g: string, onName: boolean): PathMatcher {
  const t = patternTest(g, onName);
  return onName ? (rel) => t.test(rel.slice(rel.lastIndexOf("/") + 1)) : t.test;
}

/**
 * A matcher for workspace-relative paths. `anchored` makes a slash-free pattern match the whole path
 * rather than the file name. Throws an Error with a readable message for a bad pattern.
 */
export function compileGlob(glob: string, anchored = false): PathMatcher {
  // A model may write Windows separators or a leading ./ — both mean the same path here.
  let g = glob.trim().replace(/\\/g, "/");
  while (g.startsWith("./")) g = g.slice(2);
  if (g.startsWith("/")) g = g.slice(1);
  return matcherFor(g, !anchored && !g.includes("/"));
}

/**
 * One ignore-file pattern: as compileGlob, but a backslash escapes the next character (`\#`, a trailing
 * `\ `) and spaces are kept, as git reads them.
 */
export function compileIgnorePattern(pattern: string, anchored: boolean): PatternTest {
  const g = pattern.startsWith("/") ? pattern.slice(1) : pattern;
  return patternTest(g, !anchored && !g.includes("/"));
}
