// Core tools: mandatory, not replaceable. Declared with zod like module tools; run in the core process.
import type { z } from "zod";
import type { ToolDecl, ToolResult } from "../contract/protocol.ts";
import type { ApprovalRequest, Approvals } from "./approvals.ts";
import type { FileDiff } from "./diff.ts";
import type { FileTimes } from "./file-times.ts";
import type { NestedInstructions } from "./nested-instructions.ts";
import type { SandboxSpec } from "./sandbox.ts";
import type { SavedOutputs } from "./saved-output.ts";

export type { ApprovalPolicy } from "./approvals.ts";

export interface ToolContext {
  /** absolute, real path of the workspace */
  workspace: string;
  signal?: AbortSignal;
  /** who allows bash, write and edit: the policy and what the user already allowed this session */
  approvals: Approvals;
  /** the user allowed file tools outside the workspace */
  allowOutside?: boolean;
  /** run bash commands in this sandbox (`--sandbox`) */
  sandbox?: SandboxSpec;
  /** the guard against destructive commands: what the user opted into, and the git-state recorder */
  guard?: GuardOptions;
  /** what the model last saw of each file (read and written by the file tools); stale edits are refused */
  files?: FileTimes;
  /** where a command's whole output is saved when its result is cut (the session's directory) */
  outputs?: SavedOutputs;
  /** AGENTS.md files below the workspace, delivered with the first file read under them */
  instructions?: NestedInstructions;
  /** what a tool shows the user while and after it runs (never part of its result for the model) */
  report?: (r: ToolReport) => void;
  /** an editor's open files (ACP `fs/*`): read and edit see its unsaved buffers, writes reach them */
  editor?: EditorFiles;
  /** an editor's terminals (ACP `terminal/*`): bash runs there, unless it runs in a sandbox */
  terminal?: CommandTerminal;
}

/** How a command ended in an editor's terminal. */
export interface TerminalRun {
  code: number | null;
  signal: string | null;
  output: string;
  /** the editor kept only the end of the output */
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
}

export interface CommandTerminal {
  /** run `argv` to its end (killed on `signal` or after `timeoutMs`); undefined: no terminal, run it here */
  run(
    argv: readonly string[],
    opts: {
      cwd: string;
      unset: readonly string[];
      timeoutMs: number;
      signal?: AbortSignal;
      outputBytes: number;
    },
  ): Promise<TerminalRun | undefined>;
}

/**
 * The files an editor holds. Paths are the resolved, confined paths the tools checked; the disk stays
 * the store (written atomically, checkpointed) and the editor is told what was written.
 */
export interface EditorFiles {
  /** the editor's text of the file, undefined when it has none (the disk is read then) */
  read(real: string): Promise<string | undefined>;
  /** the file was written with `text`: the editor's buffer takes it */
  written(real: string, text: string): Promise<void>;
}

/** Display-only news from a running tool: output as it arrives, the diff it made, how a command ended. */
export type ToolReport =
  | { kind: "output"; text: string }
  | { kind: "diff"; path: string; diff: FileDiff }
  | { kind: "exit"; code: number | null };

/**
 * A call worked out but not yet done: what it would change (the approval question, built by the tool,
 * which alone knows its diff), and how to do it. Absent `change`: nothing needs approving.
 */
export interface PreparedCall {
  change?: {
    request: ApprovalRequest /** bash: the command, which a session-wide prefix may cover */;
    command?: string;
  };
  apply(): Promise<ToolResult>;
}

export interface CoreTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  /**
   * The whole call, approval included (asked through ctx.approvals). The tool dispatch uses `prepare`
   * instead when there is one, and asks the approval itself.
   */
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
  /** tools that change things: the call worked out up to the approval question */
  prepare?(args: z.infer<S>, ctx: ToolContext): Promise<PreparedCall>;
  /** it may change files in the workspace (a checkpoint is taken before the first such call of a turn) */
  mayChange?: boolean;
  /**
   * A forgiving reading of a common mistake in this tool's arguments, before they are checked: changes
   * `args` (a copy) in place and says what it did, for the result.
   */
  relax?(args: Record<string, unknown>): string[];
}

export type { ToolDecl, ToolResult };

/** What the bash guard lets through without its question, and what it records first. */
export interface GuardOptions {
  /** --allow-destructive or guard.allow_destructive: flagged commands run without the extra question */
  allowDestructive?: boolean;
  /** guard.allow_paths: places flagged writes and deletes may go to (absolute) */
  allowPaths?: readonly string[];
  /** an exact command the user allowed for this workspace (config.json, or "always" at the question) */
  allowed?: (command: string) => boolean;
  /** before an allowed git command that loses work runs: record the repository's state */
  beforeGit?: (repoDir: string, command: string) => void;
}
