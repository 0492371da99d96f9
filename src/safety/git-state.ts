// Git state recorded before an allowed git command that loses work (reset --hard, checkout -- ., clean
// -f, branch -D, …), so /undo and `i sessions --rewind` can put the repository back: HEAD, every branch
// and tag, the index, and the working tree (tracked and untracked files, not ignored ones). The user's
// stash, reflog and index are never touched: the trees are written through a temporary index, kept as
// commit objects under a private ref (refs/i-guard/…, which git gc respects and `git stash list`,
// `git branch` and `git tag` do not show), and described by a record in the session's directory.
// An undo that puts a repository back first records it as it is, so /redo can put the command's
// result back just as symmetrically (git-states/redo/<the undo's event id>/).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../contract/errors.ts";
import { GitStateRecord } from "../contract/guard.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { git, tryGit } from "./git-run.ts";
import { GUARD_STATES_KEPT, pruneGuardRefs, RECORD_TRAILER, TIME_TRAILER } from "./git-state-prune.ts";

const DIR = "git-states";
const REDO = "redo";

/** One line of a command for a commit message (a newline in it must not forge a trailer). */
const summary = (command: string) => command.replace(/\s+/g, " ").slice(0, 200);

/** The next record's number and file in `dir` (the records are 0001.json, 0002.json, …). */
function nextRecord(dir: string): { n: number; file: string } {
  const n = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).length + 1 : 1;
  return { n, file: join(dir, `${String(n).padStart(4, "0")}.json`) };
}

/** The repository at `dir` as it is now, kept under `keepRef` and written to `file`. */
function capture(dir: string, command: string, label: string, file: string, keepRef: string): string {
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
  const indexCommit = git(top, ["commit-tree", indexTree, ...parent, "-m", `i: the index ${label}`]);
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
  const recordedAt = new Date().toISOString();
  // The trailers name the record: a kept commit whose record is gone (its session deleted) is pruned.
  const worktreeCommit = git(top, [
    "commit-tree",
    worktreeTree,
    "-p",
    indexCommit,
    "-m",
    `i: the working tree ${label}`,
    "-m",
    `${RECORD_TRAILER}: ${file}\n${TIME_TRAILER}: ${recordedAt}`,
  ]);
  git(top, ["update-ref", keepRef, worktreeCommit]);
  const record: GitStateRecord = {
    top,
    git_dir: gitDir,
    command,
    recorded_at: recordedAt,
    ...(headRef ? { head_ref: headRef } : {}),
    ...(head ? { head } : {}),
    refs,
    index_commit: indexCommit,
    worktree_commit: worktreeCommit,
    keep_ref: keepRef,
  };
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  // Bounded: the states whose records are gone, and all but the newest, are let go.
  try {
    pruneGuardRefs(top);
  } catch {}
  return file;
}

/** Record the repository at `dir` before `command` runs; the record's path, or why it failed. */
export function recordGitState(sessionDir: string, sessionId: string, dir: string, command: string): string {
  const { n, file } = nextRecord(join(sessionDir, DIR));
  return capture(dir, command, `before ${summary(command)}`, file, `refs/i-guard/${sessionId}/${n}`);
}

function records(dir: string): GitStateRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const parsed = GitStateRecord.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
      return parsed.success ? [parsed.data] : [];
    });
}

/** Each repository's earliest state recorded since `sinceTs`: what a rewind to then puts back. */
function since(sessionDir: string, sinceTs: string): GitStateRecord[] {
  const seen = new Set<string>();
  return records(join(sessionDir, DIR)).filter((r) => {
    if (r.recorded_at < sinceTs || seen.has(r.top)) return false;
    seen.add(r.top);
    return true;
  });
}

function restoreOne(r: GitStateRecord, worktree: boolean, as: (r: GitStateRecord) => string): string {
  const { top } = r;
  if (tryGit(top, ["cat-file", "-e", `${r.worktree_commit}^{commit}`]) === undefined)
    throw new Error(
      `its commits are gone (the repository keeps the newest ${GUARD_STATES_KEPT} recorded states, and git gc has run since)`,
    );
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
  return `git state restored in ${top}: HEAD, ${Object.keys(r.refs).length} branch(es) and tag(s), the index${worktree ? " and the working tree" : ""} as ${as(r)}`;
}

function restoreAll(
  all: () => GitStateRecord[],
  worktree: boolean,
  as: (r: GitStateRecord) => string,
): string[] {
  let chosen: GitStateRecord[];
  try {
    chosen = all();
  } catch (err) {
    return [`git state not restored: its records cannot be read (${errorMessage(err)})`];
  }
  return chosen.map((r) => {
    try {
      return restoreOne(r, worktree, as);
    } catch (err) {
      const kept = tryGit(r.top, ["rev-parse", "-q", "--verify", r.keep_ref]) !== undefined;
      return `git state in ${r.top} not restored: ${errorMessage(err)}${kept ? ` (the commits are kept under ${r.keep_ref})` : ""}`;
    }
  });
}

/**
 * Rewinding to before `sinceTs`: each repository put back to its earliest state recorded since then.
 * `worktree`: also write the recorded files (when workspace checkpoints are off and cannot).
 */
export function restoreGitStates(sessionDir: string, sinceTs: string, worktree: boolean): string[] {
  return restoreAll(
    () => since(sessionDir, sinceTs),
    worktree,
    (r) => `before \`${r.command}\``,
  );
}

/**
 * Before the rewind `eventId` puts back the repositories recorded since `sinceTs`: each as it is now,
 * for the /redo that reverses it. Returns lines for those that could not be recorded.
 */
export function keepGitStatesForRedo(
  sessionDir: string,
  sessionId: string,
  sinceTs: string,
  eventId: string,
): string[] {
  let chosen: GitStateRecord[];
  try {
    chosen = since(sessionDir, sinceTs);
  } catch {
    return [];
  }
  const dir = join(sessionDir, DIR, REDO, eventId);
  return chosen.flatMap((r) => {
    try {
      const { n, file } = nextRecord(dir);
      const ref = `refs/i-guard/${sessionId}/${REDO}/${eventId}/${n}`;
      capture(r.top, r.command, `at the undo of ${summary(r.command)}`, file, ref);
      return [];
    } catch (err) {
      return [`git state in ${r.top} not recorded for /redo: ${errorMessage(err)}`];
    }
  });
}

/** Reversing the rewind `eventId`: each repository it put back returned to how it was just before. */
export function redoGitStates(sessionDir: string, eventId: string, worktree: boolean): string[] {
  return restoreAll(
    () => records(join(sessionDir, DIR, REDO, eventId)),
    worktree,
    (r) => `before the undo of \`${r.command}\``,
  );
}
