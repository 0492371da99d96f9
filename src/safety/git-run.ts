// git, run for the guard's git-state records: its output trimmed, a failure as one line naming the
// subcommand. Never prompts; commits made here carry their own identity (the user's config may have none).
import { spawnSync } from "node:child_process";

const IDENTITY = {
  GIT_AUTHOR_NAME: "i",
  GIT_AUTHOR_EMAIL: "i@localhost",
  GIT_COMMITTER_NAME: "i",
  GIT_COMMITTER_EMAIL: "i@localhost",
};

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...IDENTITY, GIT_TERMINAL_PROMPT: "0", ...env },
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(input === undefined ? {} : { input }),
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(`git ${args[0]}: ${(r.stderr || r.error?.message || "failed").trim().split("\n")[0]}`);
  return r.stdout.trim();
}

export function tryGit(cwd: string, args: string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}
