// Git state recorded before an allowed git command that loses work (reset --hard, checkout -- ., clean
// -f, branch -D, …), so /undo and `i sessions --rewind` can put the repository back: HEAD, every branch
// and tag, the index, and the working tree (tracked and untracked files, not ignored ones). The user's
// stash, reflog and index are never touched: the trees are written through a temporary index, kept as
// commit objects under a private ref (refs/i-guard/…, which git gc respects and `git stash list`,
// `git branch` and `git tag` do not show), and described by a record in the session's directory.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../contract/errors.ts";
import { GitStateRecord } from "../contract/guard.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";

const DIR = "git-states";
/** Commits made here carry this identity: the user's own git config may have none. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "i",
  GIT_AUTHOR_EMAIL: "i@localhost",
  GIT_COMMITTER_NAME: "i",
  GIT_COMMITTER_EMAIL: "i@localhost",
};

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...IDENTITY, GIT_TERMINAL_PROMPT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 30_000,
  });
  if (r.status !== 0)
    throw new Error(`git ${args[0]}: ${(r.stderr || r.error?.message || "failed").trim().split("\n")[0]}`);
  return r.stdout.trim();
}

const tryGit = (cwd: string, args: string[]): string | undefined => {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
};

/** Record the repository at `dir` before `command` runs; the record's path, or why it failed. */
export function recordGitState(sessionDir: string, sessionId: string, dir: string, command: string): string {
  const top = git(dir, ["rev-parse", "--show-toplevel"]);
  const gitDir = git(top, ["rev-parse", "--absolute-git-dir"]);
  const headRef = tryGit(top, ["symbolic-ref", "-q", "HEAD"]);
  const head = tryGit(top, ["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
  const refs: Record<string, string> = {};
  for (const line of git(top, [
    "for-each-ref",
    "--format=%(refname) %(objectname)",
    "refs/heads",
    "refs/tags",
  ]).split("\n")) {
    const [name, sha] = line.split(" ");
    if (name && sha) refs[name] = sha;
  }
  const parent = head ? ["-p", head] : [];
  const indexTree = git(top, ["write-tree"]);
  const indexCommit = git(top, [
    "commit-tree",
    indexTree,
    ...parent,
    "-m",
    `i: the index before ${command.slice(0, 200)}`,
  ]);
  // The working tree through a copy of the index: the user's own index stays as it is.
  const tmp = join(tmpdir(), `i-git-index-${process.pid}-${Date.now()}`);
  let worktreeTree: string;
  try {
    if (existsSync(join(gitDir, "index"))) copyFileSync(join(gitDir, "index"), tmp);
    git(top, ["add", "-A", "--", "."], { GIT_INDEX_FILE: tmp });
    worktreeTree = git(top, ["write-tree"], { GIT_INDEX_FILE: tmp });
  } finally {
    rmSync(tmp, { force: true });
  }
  const worktreeCommit = git(top, [
    "commit-tree",
    worktreeTree,
    "-p",
    indexCommit,
    "-m",
    `i: the working tree before ${command.slice(0, 200)}`,
  ]);
  const n = existsSync(join(sessionDir, DIR)) ? readdirSync(join(sessionDir, DIR)).length : 0;
  const keepRef = `refs/i-guard/${sessionId}/${n + 1}`;
  git(top, ["update-ref", keepRef, worktreeCommit]);
  const record: GitStateRecord = {
    top,
    git_dir: gitDir,
    command,
    recorded_at: new Date().toISOString(),
    ...(headRef ? { head_ref: headRef } : {}),
    ...(head ? { head } : {}),
    refs,
    index_commit: indexCommit,
    worktree_commit: worktreeCommit,
    keep_ref: keepRef,
  };
  mkdirSync(join(sessionDir, DIR), { recursive: true });
  const file = join(sessionDir, DIR, `${String(n + 1).padStart(4, "0")}.json`);
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

function records(sessionDir: string): GitStateRecord[] {
  const dir = join(sessionDir, DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const parsed = GitStateRecord.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
      return parsed.success ? [parsed.data] : [];
    });
}

function restoreOne(r: GitStateRecord, worktree: boolean): string {
  const { top } = r;
  for (const [ref, sha] of Object.entries(r.refs))
    if (tryGit(top, ["rev-parse", "-q", "--verify", ref]) !== sha)
      git(top, ["update-ref", "-m", "i: undo", ref, sha]);
  if (r.head_ref) {
    if (tryGit(top, ["symbolic-ref", "-q", "HEAD"]) !== r.head_ref)
      git(top, ["symbolic-ref", "HEAD", r.head_ref]);
  } else if (r.head) git(top, ["update-ref", "--no-deref", "HEAD", r.head]);
  if (worktree) {
    // Every recorded file back (files made since are left for the checkpoint's restore to judge).
    const tmp = join(tmpdir(), `i-git-index-${process.pid}-${Date.now()}`);
    try {
      git(top, ["read-tree", `${r.worktree_commit}^{tree}`], { GIT_INDEX_FILE: tmp });
      git(top, ["checkout-index", "-a", "-f"], { GIT_INDEX_FILE: tmp });
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  git(top, ["read-tree", `${r.index_commit}^{tree}`]);
  tryGit(top, ["update-index", "-q", "--refresh"]);
  return `git state restored in ${top}: HEAD, ${Object.keys(r.refs).length} branch(es) and tag(s), the index${worktree ? " and the working tree" : ""} as before \`${r.command}\``;
}

/**
 * Rewinding to before `sinceTs`: each repository put back to its earliest state recorded since then.
 * `worktree`: also write the recorded files (when workspace checkpoints are off and cannot).
 */
export function restoreGitStates(sessionDir: string, sinceTs: string, worktree: boolean): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  let all: GitStateRecord[];
  try {
    all = records(sessionDir);
  } catch (err) {
    return [`git state not restored: its records cannot be read (${errorMessage(err)})`];
  }
  for (const r of all) {
    if (r.recorded_at < sinceTs || seen.has(r.top)) continue;
    seen.add(r.top);
    try {
      lines.push(restoreOne(r, worktree));
    } catch (err) {
      lines.push(
        `git state in ${r.top} not restored: ${errorMessage(err)} (the commits are kept under ${r.keep_ref})`,
      );
    }
  }
  return lines;
}
