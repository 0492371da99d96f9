// What the system prompt says about where the model works: date, platform, shell, workspace, git state,
// approvals and sandbox. Gathered once when a session starts (the prompt is the session's first
// message); everything that can vary is a field, so tests inject it and compare the whole prompt.
import { type ExecFileException, execFile } from "node:child_process";
import { arch, platform } from "node:os";
import { commandEnv, findShell } from "../tools/bash.ts";
import type { SandboxSpec } from "../tools/sandbox.ts";
import type { ApprovalPolicy } from "../tools/types.ts";
import { localDay } from "./local-day.ts";

/** git status is skipped past this (a huge repository must not delay the start). */
const GIT_TIMEOUT_MS = 2000;

export type GitState =
  | { kind: "repo"; branch: string; dirty: boolean | undefined }
  | { kind: "none" }
  | { kind: "unknown"; why: string };

export interface PromptEnvironment {
  /** local date, YYYY-MM-DD and weekday */
  date: string;
  platform: string;
  shell: string;
  workspace: string;
  git: GitState;
  approval: ApprovalPolicy;
  sandbox?: { network: boolean };
  /** AGENTS.md files below the workspace come with the first file read under them */
  nestedInstructions?: boolean;
}

/**
 * English day names, not toLocaleDateString: asking the engine's ICU for a weekday maps several MB of
 * its code and data into the core for one word.
 */
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const d = localDay(now);
  return `${d.year}-${pad(d.month)}-${pad(d.day)} (${WEEKDAYS[d.weekday]})`;
}

/** The branch line of `git status --porcelain -b`: "## main...origin/main [ahead 1]" and its variants. */
export function parseBranchLine(line: string): string {
  const s = line.replace(/^## /, "");
  const noCommits = /^(?:No commits yet|Initial commit) on (.+)$/.exec(s);
  if (noCommits) return `${noCommits[1]} (no commits yet)`;
  if (s.startsWith("HEAD (no branch)")) return "detached HEAD";
  return s.split("...")[0]?.split(" ")[0] ?? s;
}

/**
 * The workspace's git state. Asynchronous: git runs while the session starts its workers and is created
 * on disk (a status in a big repository takes tens of ms, and blocking for it delayed all of that).
 */
export function gitState(workspace: string): Promise<GitState> {
  return new Promise((resolve) => {
    const done = (err: ExecFileException | null, stdout: string, stderr: string) => {
      if (err?.code === "ENOENT") return resolve({ kind: "unknown", why: "git is not installed" });
      if (err) {
        if (/not a git repository/i.test(stderr)) return resolve({ kind: "none" });
        if (err.killed || err.signal) return resolve({ kind: "unknown", why: "git status took too long" });
        return resolve({ kind: "unknown", why: "git status failed" });
      }
      const lines = stdout.split("\n").filter((l) => l !== "");
      const branch = lines[0]?.startsWith("## ") ? parseBranchLine(lines[0]) : "unknown branch";
      resolve({ kind: "repo", branch, dirty: lines.some((l) => !l.startsWith("## ")) });
    };
    try {
      // No optional locks: a status running beside the user's own git commands must not take index.lock.
      execFile(
        "git",
        ["--no-optional-locks", "status", "--porcelain=v1", "-b"],
        {
          cwd: workspace,
          env: commandEnv(),
          timeout: GIT_TIMEOUT_MS,
          encoding: "utf8",
          maxBuffer: 4 * 1024 * 1024,
          windowsHide: true,
        },
        (err, stdout, stderr) => done(err, String(stdout ?? ""), String(stderr ?? "")),
      ).stdin?.end();
    } catch {
      resolve({ kind: "unknown", why: "git could not be run" });
    }
  });
}

export async function gatherEnvironment(
  workspace: string,
  approval: ApprovalPolicy,
  sandbox: SandboxSpec | undefined,
  extra: { nestedInstructions?: boolean } = {},
  now = new Date(),
): Promise<PromptEnvironment> {
  // git runs in a child while the rest is read here.
  const git = gitState(workspace);
  let shell = "sh";
  try {
    shell = findShell();
  } catch {}
  return {
    date: localDate(now),
    platform: `${platform()} ${arch()}`,
    shell,
    workspace,
    git: await git,
    approval,
    ...(sandbox ? { sandbox: { network: sandbox.network } } : {}),
    ...(extra.nestedInstructions ? { nestedInstructions: true } : {}),
  };
}

/** What the prompt says of each approval mode (also the note of a change, approval-note.ts). */
export const APPROVAL_LINES: Record<ApprovalPolicy, string> = {
  all: "all: bash, write and edit run without asking the user",
  edits:
    "edits: write and edit run without asking; the user approves each command, and a refusal comes back as the tool's result with the user's reason",
  ask: "ask: the user approves each command and file change; a refusal comes back as the tool's result with the user's reason: adapt to it, do not repeat the same call",
  none: "none, read-only: bash, write and edit are refused. Do not try to write files or run commands",
};

/** The environment as the prompt's list. */
export function renderEnvironment(env: PromptEnvironment): string {
  const git =
    env.git.kind === "repo"
      ? `branch ${env.git.branch}, ${env.git.dirty ? "with uncommitted changes (some may be the user's work in progress)" : "no uncommitted changes"}`
      : env.git.kind === "none"
        ? "not a git repository"
        : `unknown (${env.git.why})`;
  const lines = [
    `- Date: ${env.date}`,
    `- Platform: ${env.platform}; bash commands run with ${env.shell}`,
    `- Workspace: ${env.workspace} (every command starts here; relative paths are relative to it)`,
    `- Git: ${git}`,
    `- Approvals: ${APPROVAL_LINES[env.approval]}`,
  ];
  if (env.sandbox) {
    lines.push(
      `- Sandbox: commands can write only inside the workspace and a private /tmp; network ${env.sandbox.network ? "allowed" : "off (installing packages or fetching will fail)"}`,
    );
  }
  if (env.nestedInstructions) {
    lines.push(
      "- Project instructions: directories inside the workspace may have their own AGENTS.md; when you read a file under one, its instructions come with the read result and apply to the files under that directory",
    );
  }
  return lines.join("\n");
}
