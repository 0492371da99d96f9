// The bash guard's files: config.json's `guard` and `sandbox` settings, config_dir/guard-allowed.json
// (exact commands the user allowed per workspace at the console's question), and the git state recorded
// before an allowed git command that loses work (in the session's directory, for /undo).
import { z } from "zod";

export const GUARD_ALLOWED_FILE = "guard-allowed.json";

/** config.json `guard`: what the user opted into. */
export const GuardSettings = z.lazy(() =>
  z.strictObject({
    /** run commands the guard flags without its extra question (as --allow-destructive); default false */
    allow_destructive: z.boolean().optional(),
    /** exact commands that run without the guard's question (compared whole, never as a pattern) */
    allow_commands: z.array(z.string().min(1)).optional(),
    /** absolute directories where deletes and writes are not flagged (as the workspace's own are) */
    allow_paths: z
      .array(z.string().refine((p) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p), "not an absolute path"))
      .optional(),
  }),
);
export type GuardSettings = z.infer<typeof GuardSettings>;

/** config.json `sandbox`: how bash runs (default: workspace-write with network, where bubblewrap runs). */
export const SandboxSettings = z.lazy(() =>
  z.strictObject({
    /** workspace-write (default where it can run) or off */
    mode: z.enum(["workspace-write", "off"]).optional(),
    /** commands may use the network; default true */
    network: z.boolean().optional(),
  }),
);
export type SandboxSettings = z.infer<typeof SandboxSettings>;

export const GuardAllowedFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    /** by the workspace's real absolute path: the exact commands allowed there */
    workspaces: z.record(z.string(), z.strictObject({ commands: z.array(z.string()) })),
  }),
);
export type GuardAllowedFile = z.infer<typeof GuardAllowedFile>;

/** A repository's state before a git command that loses work: enough to put it back. */
export const GitStateRecord = z.lazy(() =>
  z.strictObject({
    /** the repository's top-level directory and its git directory (absolute) */
    top: z.string(),
    git_dir: z.string(),
    /** the command about to run, and when (ISO 8601): /undo of a turn from before then restores it */
    command: z.string(),
    recorded_at: z.string(),
    /** HEAD: the branch it is on (refs/heads/…), or none when detached; and the commit (absent: no commit yet) */
    head_ref: z.string().optional(),
    head: z.string().optional(),
    /** every branch and tag, by full ref name */
    refs: z.record(z.string(), z.string()),
    /** a commit whose tree is the index, and one whose tree is the working tree (tracked and untracked, not ignored) */
    index_commit: z.string(),
    worktree_commit: z.string(),
    /** the private ref that keeps both from git gc (outside refs/heads, refs/tags and refs/stash) */
    keep_ref: z.string(),
  }),
);
export type GitStateRecord = z.infer<typeof GitStateRecord>;
