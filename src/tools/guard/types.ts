// What the guard says of a command, and what it needs to know of the place the command runs in.

/** The directories a command is judged against (absolute, real paths). */
export interface GuardPlace {
  workspace: string;
  /** where the command starts (the workspace or its workdir) */
  cwd: string;
  home: string;
  /** the temp directories writes may go to (TMPDIR, or /tmp when it is unset) */
  temp: readonly string[];
  /** whether `paths` have uncommitted changes in the repository at `dir` (tests may give their own) */
  uncommitted?: (dir: string, paths: readonly string[]) => string[];
  /** whether HEAD of the repository at `dir` is on a remote-tracking branch (pushed) */
  pushed?: (dir: string) => boolean;
}

export type Verdict =
  /** nothing destructive seen */
  | { kind: "ok" }
  /** destructive: asked even under "allow all", refused in print mode; `git` set for a git command
   * that loses work in the repository at that directory (its state is recorded before it runs) */
  | { kind: "flagged"; reason: string; git?: string }
  /** the guard cannot tell (unparsable, a path only known when it runs): the sandbox judges */
  | { kind: "unknown"; reason: string };

/** One finding while a command is read. */
export type Finding = { kind: "flagged"; reason: string; git?: string } | { kind: "unknown"; reason: string };
