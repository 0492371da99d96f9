// The repository a destructive git command is let loose on in the guard's tests: committed history and
// an afternoon of uncommitted work, so a test sees whether the work, the index and the branch tips come back.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

// No user or system git config leaks in (hooks, signing, a default branch); commits need an identity.
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

/** Run git in `cwd`; its output, trimmed. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();

/** Make `ws` a repository with two commits on main and uncommitted work (staged and unstaged). */
export function victimRepo(ws: string): void {
  git(ws, "init", "-q", "-b", "main");
  writeFileSync(join(ws, "a.txt"), "one\n");
  writeFileSync(join(ws, "b.txt"), "bee\n");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "first");
  writeFileSync(join(ws, "a.txt"), "two\n");
  git(ws, "commit", "-qam", "second");
  // The afternoon's uncommitted work: a staged change, an unstaged one.
  writeFileSync(join(ws, "b.txt"), "staged bee\n");
  git(ws, "add", "b.txt");
  writeFileSync(join(ws, "a.txt"), "afternoon of work\n");
}
