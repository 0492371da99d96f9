// Interpreters asked to delete or overwrite: `python -c`, `node -e`, `perl -e`, `ruby -e`, a script the
// same command wrote from a here-doc, or code read from a download. Best effort, and said so: the code
// is scanned for a destructive call next to a path the guard protects, and shell strings handed to
// system()/exec are read as commands. What this misses, the sandbox still stops.
import { fileOp } from "./file-ops.ts";
import { absolute, judgePath } from "./paths.ts";
import { type Reading, readScript, type Scope, type Stdin, writtenScript } from "./walk.ts";
import type { Word } from "./words.ts";

export const INTERPRETERS = new Set([
  "python",
  "node",
  "nodejs",
  "perl",
  "ruby",
  "php",
  "bun",
  "deno",
  "lua",
  "Rscript",
  "osascript",
]);

const CODE_FLAGS = new Set(["-c", "-e", "-E", "--eval", "-r", "-p", "--print", "eval", "-x"]);

const DESTRUCTIVE =
  /\b(rmtree|rmSync|rm_rf|rm_r|rmdirSync|rmdir|unlink(Sync)?|remove|removedirs|truncate|writeFile(Sync)?|write_text|write_bytes|rename(Sync)?|chmod|chown|move|copyfile|copy2|copytree|FileUtils\.rm|File\.delete|open\s*\([^)]*['"][wa]\+?b?['"])/;
const SHELL_CALL =
  /\b(system|popen|exec(Sync|File|FileSync)?|spawn(Sync)?|check_output|check_call|call|run|`)\s*\(?\s*$/;
const HOME_API =
  /(expanduser\s*\(\s*['"]~|Path\.home\(\)|os\.homedir\(\)|process\.env\.HOME|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|os\.environ\[['"]HOME['"]\]|getenv\(['"]HOME['"]\))/;

/** The string literals of `code`, with the text before each (to see whether it is a shell call's). */
function literals(code: string): { value: string; before: string }[] {
  const out: { value: string; before: string }[] = [];
  const re = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/gs;
  for (const m of code.matchAll(re)) {
    const start = m.index ?? 0;
    out.push({
      value: (m[2] ?? "").replace(/\\(.)/g, "$1"),
      before: code.slice(Math.max(0, start - 40), start),
    });
  }
  return out;
}

/** Judge interpreter code run at `scope`: destructive calls on protected paths, shell strings it runs. */
export function judgeCode(code: string, label: string, scope: Scope, r: Reading): void {
  if (code.length > 200_000) return;
  const destructive = DESTRUCTIVE.test(code);
  if (destructive && HOME_API.test(code)) {
    r.findings.push({
      kind: "flagged",
      reason: `${label} code deletes or writes under your home directory (best effort)`,
    });
    return;
  }
  for (const lit of literals(code)) {
    if (SHELL_CALL.test(lit.before) && /\s/.test(lit.value)) {
      readScript(lit.value, scope, r);
      continue;
    }
    if (!destructive || scope.cwd === undefined) continue;
    if (!/^(\/|~|\.\.)/.test(lit.value) || /\s/.test(lit.value)) continue;
    const why = judgePath(absolute(lit.value, scope.cwd, r.place.home), "delete", r.place);
    if (why) {
      r.findings.push({
        kind: "flagged",
        reason: `${label} code ${why.replace(/^deletes/, "deletes or writes")} (best effort)`,
      });
      return;
    }
  }
}

export function interpreter(
  words: Word[],
  _env: Map<string, string>,
  scope: Scope,
  r: Reading,
  stdin: Stdin,
): void {
  const label = words[0]?.value.split("/").at(-1) ?? "interpreter";
  // perl -i edits the files it is given in place, as sed -i does.
  if (label === "perl" && words.some((w) => /^-[a-zA-Z]*i/.test(w.value))) fileOp(words, scope, r);
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as Word;
    // -c CODE, -e CODE, and bundled flags ending in e (perl -pie, -ne).
    if (CODE_FLAGS.has(w.value) || /^-[a-zA-Z]*e$/.test(w.value)) {
      const code = words[i + 1];
      if (code) judgeCode(code.value, label, scope, r);
      return;
    }
    if (w.value.startsWith("-")) continue;
    const written = writtenScript(w, scope, r);
    if (written !== undefined) judgeCode(written, label, scope, r);
    return;
  }
  if (stdin && "download" in stdin)
    r.findings.push({ kind: "flagged", reason: `runs code downloaded from the network (curl … | ${label})` });
  else if (stdin && "script" in stdin) judgeCode(stdin.script, label, scope, r);
}
