// git commands that lose work: reset --hard, checkout/restore over uncommitted changes, clean -f, stash
// drop/clear, branch -D, push --force, rebase/filter-branch of pushed history, reflog expiry; and any git
// command aimed at a repository outside the workspace (-C, --git-dir, --work-tree, GIT_DIR, a cd).
import { spawnSync } from "node:child_process";
import { absolute, judgePath, realish, within } from "./paths.ts";
import type { GuardPlace } from "./types.ts";
import type { Reading, Scope } from "./walk.ts";
import { tildeWord, type Word } from "./words.ts";

const GLOBAL_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
]);

function git(dir: string, args: string[]): string | undefined {
  const r = spawnSync("git", ["-C", dir, ...args], {
    encoding: "utf8",
    timeout: 5000,
    stdio: ["ignore", "pipe", "ignore"],
  });
  return r.status === 0 ? r.stdout : undefined;
}

/** Paths (of `paths`, or all) with uncommitted changes, tracked ones only (what checkout would overwrite). */
export function uncommittedPaths(dir: string, paths: readonly string[]): string[] {
  const out = git(dir, ["status", "--porcelain", "-z", "--untracked-files=no", "--", ...paths]);
  return (out ?? "")
    .split("\0")
    .filter((l) => l.length > 3)
    .map((l) => l.slice(3));
}

/** Whether HEAD is on a remote-tracking branch: rewriting it rewrites history others have. */
export function headPushed(dir: string): boolean {
  return (git(dir, ["branch", "-r", "--contains", "HEAD"]) ?? "").trim() !== "";
}

function changes(place: GuardPlace, dir: string, paths: readonly string[]): string[] {
  return (place.uncommitted ?? uncommittedPaths)(dir, paths);
}

function listed(files: string[]): string {
  const shown = files.slice(0, 3).join(", ");
  return files.length > 3 ? `${shown} and ${files.length - 3} more` : shown;
}

interface Parsed {
  sub: string;
  args: string[];
  /** the directory git works in, when known */
  dir: string | undefined;
  /** -C, --git-dir, --work-tree, GIT_DIR given: the repository named explicitly */
  explicit?: string;
}

function parse(words: Word[], env: Map<string, string>, scope: Scope, r: Reading): Parsed {
  let dir = scope.cwd;
  let explicit: string | undefined;
  const resolveDir = (w: string, dynamic: boolean) => {
    if (dynamic || dir === undefined) return undefined;
    return realish(absolute(w, dir, r.place.home), true);
  };
  for (const k of ["GIT_DIR", "GIT_WORK_TREE"]) {
    const v = env.get(k);
    if (v !== undefined) explicit = resolveDir(v, false) ?? v;
  }
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i] as Word;
    const v = w.value;
    if (!v.startsWith("-")) break;
    const eq = v.indexOf("=");
    const key = eq > 0 ? v.slice(0, eq) : v;
    const value =
      eq > 0 ? v.slice(eq + 1) : words[i + 1] ? tildeWord(words[i + 1] as Word, r.place.home) : "";
    const dynamic = eq > 0 ? w.dynamic : (words[i + 1]?.dynamic ?? false);
    if (GLOBAL_VALUED.has(key) && eq < 0) i++;
    if (key === "-C") dir = resolveDir(value, dynamic);
    if (key === "--git-dir" || key === "--work-tree") explicit = resolveDir(value, dynamic) ?? value;
  }
  return {
    sub: words[i]?.value ?? "",
    args: words.slice(i + 1).map((w) => w.value),
    dir,
    ...(explicit ? { explicit } : {}),
  };
}

const has = (args: string[], ...names: string[]) => args.some((a) => names.includes(a));
const shortFlag = (args: string[], f: string) => args.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(f));

function outside(place: GuardPlace, dir: string): boolean {
  return !within(dir, place.workspace) && !place.temp.some((t) => within(dir, t));
}

/** Why this git command loses work, or undefined. */
function losesWork(p: Parsed, dir: string, place: GuardPlace): string | undefined {
  const { sub, args } = p;
  const dirty = (paths: readonly string[]) => changes(place, dir, paths);
  switch (sub) {
    case "reset":
      if (has(args, "--hard", "--merge")) {
        const c = dirty([]);
        return `git reset --hard${c.length ? ` discards uncommitted changes to ${listed(c)}` : " can move the branch and lose commits"}`;
      }
      return undefined;
    case "checkout": {
      const dd = args.indexOf("--");
      const force = has(args, "-f", "--force");
      let paths = dd >= 0 ? args.slice(dd + 1) : [];
      if (dd < 0 && !force)
        paths = args.filter((a) => a === "." || a.includes("/") || /\.[a-z0-9]+$/i.test(a) || a === "*");
      if (!force && paths.length === 0) return undefined;
      const c = dirty(force ? [] : paths);
      return c.length
        ? `git checkout ${force ? "-f" : `-- ${paths.join(" ")}`} discards uncommitted changes to ${listed(c)}`
        : undefined;
    }
    case "restore": {
      const staged = has(args, "--staged", "-S");
      if (staged && !has(args, "--worktree", "-W")) return undefined;
      const paths = args.filter((a) => !a.startsWith("-"));
      const c = dirty(paths);
      return c.length ? `git restore discards uncommitted changes to ${listed(c)}` : undefined;
    }
    case "switch":
      if (has(args, "--discard-changes", "-f", "--force")) {
        const c = dirty([]);
        return c.length
          ? `git switch --discard-changes discards uncommitted changes to ${listed(c)}`
          : undefined;
      }
      return undefined;
    case "clean":
      if ((shortFlag(args, "f") || has(args, "--force")) && !shortFlag(args, "n") && !has(args, "--dry-run"))
        return "git clean -f deletes untracked files, which git cannot bring back";
      return undefined;
    case "stash":
      if (args[0] === "drop" || args[0] === "clear")
        return `git stash ${args[0]} throws away stashed changes`;
      return undefined;
    case "branch":
      if (
        has(args, "-D") ||
        (has(args, "-d", "--delete") && has(args, "-f", "--force")) ||
        shortFlag(args, "D")
      )
        return "git branch -D deletes a branch even with unmerged commits";
      return undefined;
    case "push":
      if (
        has(args, "-f", "--force", "--mirror", "--prune") ||
        args.some((a) => a.startsWith("--force") || /^\+/.test(a))
      )
        return "git push --force overwrites the remote's history";
      if (has(args, "-d", "--delete") || args.some((a) => /^:[^:]/.test(a)))
        return "git push --delete deletes a remote branch";
      return undefined;
    case "rebase":
      if (has(args, "--abort", "--continue", "--skip", "--quit", "--edit-todo", "--show-current-patch"))
        return undefined;
      return (place.pushed ?? headPushed)(dir)
        ? "git rebase rewrites commits that are already pushed"
        : undefined;
    case "filter-branch":
    case "filter-repo":
      return `git ${sub} rewrites the repository's whole history`;
    case "reflog":
      return args[0] === "expire" || args[0] === "delete"
        ? `git reflog ${args[0]} throws away the record that recovers lost commits`
        : undefined;
    case "update-ref":
      return has(args, "-d") ? "git update-ref -d deletes a ref" : undefined;
    case "gc":
    case "prune":
      return args.some((a) => a === "--prune=now" || a === "--expire=now") || sub === "prune"
        ? `git ${sub} deletes unreachable commits now`
        : undefined;
    default:
      return undefined;
  }
}

export function gitCommand(words: Word[], env: Map<string, string>, scope: Scope, r: Reading): void {
  const p = parse(words, env, scope, r);
  const target = p.explicit ?? p.dir;
  if (target !== undefined && outside(r.place, target)) {
    r.findings.push({ kind: "flagged", reason: `git ${p.sub} is aimed at another repository (${target})` });
    return;
  }
  if (p.dir === undefined) {
    if (losesWorkName(p.sub))
      r.findings.push({ kind: "unknown", reason: "a git command in a directory only known when it runs" });
    return;
  }
  const why = losesWork(p, p.dir, r.place);
  if (why) r.findings.push({ kind: "flagged", reason: why, git: p.dir });
  // `git rm -r`, `git mv` over paths outside are judged as rm and mv.
  if (p.sub === "rm")
    for (const a of p.args.filter((x) => !x.startsWith("-"))) {
      const why2 = judgePath(absolute(a, p.dir, r.place.home), "delete", r.place);
      if (why2) r.findings.push({ kind: "flagged", reason: `git rm ${why2}` });
    }
}

const LOSING = new Set([
  "reset",
  "checkout",
  "restore",
  "switch",
  "clean",
  "stash",
  "branch",
  "push",
  "rebase",
  "filter-branch",
  "reflog",
  "gc",
  "prune",
  "update-ref",
]);
const losesWorkName = (s: string) => LOSING.has(s);
