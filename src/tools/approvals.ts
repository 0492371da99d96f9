// Approvals for the tools that change things: bash, write and edit, and tools declared at run time (an MCP
// server's), which are approved like bash. The policy decides (`all` runs everything, `edits` runs write
// and edit and asks for the rest, `none` is read-only, `ask` asks the user) and may change during a
// session (the console's Shift+Tab, /approve); answers that cover the rest of the session are
// remembered here, per bash command prefix or per file tool. When no one can be asked (no terminal), an
// approval that would be asked is refused at once — never a wait that cannot end.

import type { FileDiff } from "./diff.ts";

export type ApprovalPolicy = "all" | "edits" | "ask" | "none";

/** The modes the console cycles through (Shift+Tab): each allows more than the one before. */
export const APPROVAL_CYCLE: readonly ApprovalPolicy[] = ["ask", "edits", "all"];

/** The mode after `p` in the console's cycle (read-only joins it at `ask`). */
export function nextApprovalPolicy(p: ApprovalPolicy): ApprovalPolicy {
  const i = APPROVAL_CYCLE.indexOf(p);
  return APPROVAL_CYCLE[(i + 1) % APPROVAL_CYCLE.length] as ApprovalPolicy;
}

/** How a mode is named on the status line. */
export const APPROVAL_LABELS: Record<ApprovalPolicy, string> = {
  ask: "ask first",
  edits: "accept edits",
  all: "allow all",
  none: "read-only",
};

/** "tool": a tool declared at run time by a module (an MCP server's), named in `name` */
export type ApprovalTool = "bash" | "write" | "edit" | "tool";

export interface ApprovalRequest {
  tool: ApprovalTool;
  /** what would happen, in one line: the command, or the path and the size of the change */
  summary: string;
  /** write and edit: the change as a diff, computed only when someone is asked (undefined: not text) */
  diff?: () => { path: string; diff: FileDiff } | undefined;
  /** bash only: the prefix "yes for the rest of the session" would allow; absent when none is safe */
  prefix?: string;
  /** bash only: why the guard flagged the command; asked even under "allow all", "always" is this exact command */
  guard?: string;
  /** "tool": the tool's name, what the user sees for it, and its group (server) */
  name?: string;
  title?: string;
  group?: string;
}

export type ApprovalAnswer =
  | { kind: "yes" }
  /** yes, and the same for the rest of the session: this command prefix (bash) or this tool */
  | { kind: "always" }
  /** "tool" only: yes, and the same for every tool of its group (server) for the rest of the session */
  | { kind: "always_group" }
  | { kind: "no"; reason?: string }
  /** Ctrl-C/Esc at the prompt: refused, and the user is cancelling the whole turn */
  | { kind: "cancel" };

export type AskApproval = (req: ApprovalRequest) => Promise<ApprovalAnswer>;

/** Characters that make a command more than one simple command: a prefix never covers those. */
const COMPOUND = /[;&|`<>\n\r]|\$\(/;

/**
 * The prefix a "yes for the session" on `command` covers: its program and, when the second word looks
 * like a subcommand (`git status`, `npm test`), that word too. Undefined for compound commands (`a && b`,
 * pipes, redirections, substitutions): allowing the first part must never allow whatever follows it.
 */
export function commandPrefix(command: string): string | undefined {
  const c = command.trim();
  if (c === "" || COMPOUND.test(c)) return undefined;
  const words = c.split(/\s+/);
  const [first, second] = words;
  if (!first || /[='"\\$*?]/.test(first)) return undefined;
  const program = first.split("/").at(-1) ?? first;
  // Only a program known to take subcommands has its second word kept: for any other (`echo hi`, `cat
  // notes.md`) that word is data, and "yes for the session" covers the program.
  const sub = second && /^[a-z][a-z0-9:_-]*$/i.test(second) && SUBCOMMAND_PROGRAMS.has(program);
  return sub ? `${first} ${second}` : first;
}

/** Programs whose second word is a subcommand (`git status`, `npm test`, `cargo build`). */
const SUBCOMMAND_PROGRAMS = new Set([
  "apt",
  "brew",
  "bun",
  "bundle",
  "cargo",
  "cmake",
  "composer",
  "deno",
  "docker",
  "dotnet",
  "gh",
  "git",
  "go",
  "gradle",
  "helm",
  "just",
  "kubectl",
  "make",
  "mix",
  "mvn",
  "npm",
  "pip",
  "pip3",
  "pnpm",
  "poetry",
  "rake",
  "rustup",
  "swift",
  "systemctl",
  "terraform",
  "uv",
  "yarn",
]);

/** True when `command` is a simple command that starts with every word of `prefix`. */
export function prefixCovers(prefix: string, command: string): boolean {
  const c = command.trim();
  if (COMPOUND.test(c)) return false;
  const want = prefix.split(" ");
  const words = c.split(/\s+/);
  return want.every((w, i) => words[i] === w);
}

const READ_ONLY =
  "refused: the session is read-only (--approve none): nothing that runs commands or changes files is allowed, so it was not done; do not retry it — continue without it, or tell the user what you need and that they can rerun with --approve ask or --approve all";

const NO_ONE_TO_ASK =
  "refused: this needs the user's approval (--approve ask), but there is no terminal to ask on, so it was not done; do not retry it — continue without it, or tell the user to rerun with --approve all";

export interface ApprovalsOptions {
  policy: ApprovalPolicy;
  /** the console's prompt; absent where there is no terminal */
  ask?: AskApproval;
  /** a refusal the user must hear about (printed on stderr by the caller) */
  warn?: (line: string) => void;
  /** what the model is told when there is no one to ask (a sub-agent's own wording) */
  noOneToAsk?: string;
  /** "always" to a command the guard flagged: this exact command is remembered for the workspace */
  rememberGuarded?: (command: string) => void;
}

export class Approvals {
  private readonly tools = new Set<ApprovalTool>();
  private readonly prefixes = new Set<string>();
  /** runtime tools, and their groups, the user allowed for the rest of the session */
  private readonly runtimeNames = new Set<string>();
  private readonly groups = new Set<string>();
  private mode: ApprovalPolicy;

  constructor(private readonly opts: ApprovalsOptions) {
    this.mode = opts.policy;
  }

  get policy(): ApprovalPolicy {
    return this.mode;
  }

  /** The mode from the next call on (answers already given for the session are kept). */
  setPolicy(p: ApprovalPolicy): void {
    this.mode = p;
  }

  /** Undefined when `req` may go ahead, else the reason it may not, worded for the model. */
  async check(req: ApprovalRequest, command?: string): Promise<string | undefined> {
    const { ask, warn } = this.opts;
    const policy = this.mode;
    if (req.guard !== undefined && policy !== "none") return guarded(req, command, this.opts);
    if (policy === "all") return undefined;
    // Accept edits: file changes run without asking; commands and other tools still ask.
    if (policy === "edits" && (req.tool === "write" || req.tool === "edit")) return undefined;
    const label = req.tool === "tool" ? (req.name ?? "tool") : req.tool;
    if (policy === "none") {
      warn?.(
        `refused ${label} (${req.summary}): the session is read-only (--approve none); rerun with --approve ask or all to allow it`,
      );
      return READ_ONLY;
    }
    if (req.tool === "tool") {
      if (req.name && this.runtimeNames.has(req.name)) return undefined;
      if (req.group && this.groups.has(req.group)) return undefined;
    } else if (this.tools.has(req.tool)) return undefined;
    if (command !== undefined && [...this.prefixes].some((p) => prefixCovers(p, command))) return undefined;
    if (!ask) {
      warn?.(
        `refused ${label} (${req.summary}): --approve ask needs a terminal to ask on; rerun with --approve all to allow it`,
      );
      return this.opts.noOneToAsk ?? NO_ONE_TO_ASK;
    }
    const answer = await ask(req);
    switch (answer.kind) {
      case "yes":
        return undefined;
      case "always":
        if (req.tool === "bash") {
          if (req.prefix) this.prefixes.add(req.prefix);
        } else if (req.tool === "tool") {
          if (req.name) this.runtimeNames.add(req.name);
        } else this.tools.add(req.tool);
        return undefined;
      case "always_group":
        if (req.tool === "tool" && req.group) this.groups.add(req.group);
        return undefined;
      case "no":
        return answer.reason?.trim()
          ? `refused by the user, who said: ${answer.reason.trim()}`
          : "refused: the user declined, so it was not done; do not retry it — ask the user how to proceed";
      case "cancel":
        return "refused: the user cancelled the turn at the approval prompt, so it was not done";
    }
  }

  /** What the session already allows without asking (for /status). */
  describe(): string {
    const p = this.mode;
    if (p === "all" || p === "none") return p === "all" ? "everything" : "read-only";
    const parts = [
      ...this.tools,
      ...[...this.prefixes].map((p) => `bash ${p} …`),
      ...this.runtimeNames,
      ...[...this.groups].map((g) => `every tool of ${g}`),
    ];
    if (p === "edits")
      return `write and edit allowed; asks for the rest${parts.length ? `, except: ${parts.join(", ")}` : ""}`;
    return parts.length ? `asks, except: ${parts.join(", ")}` : "asks for bash, write and edit";
  }
}

/** A command the guard flagged: the user is asked whatever the policy; with no one to ask, refused. */
async function guarded(
  req: ApprovalRequest,
  command: string | undefined,
  opts: ApprovalsOptions,
): Promise<string | undefined> {
  const reason = req.guard ?? "";
  if (!opts.ask) {
    opts.warn?.(
      `the guard refused a command (${req.summary}): ${reason}; allow it with --allow-destructive or an exact entry in config.json's guard.allow_commands`,
    );
    return `refused by the guard (${reason}), so it was not run; do not retry it or work around it — do the task another way, or tell the user what you need run and why (they can allow it with --allow-destructive)`;
  }
  const answer = await opts.ask(req);
  if (answer.kind === "always" && command !== undefined) opts.rememberGuarded?.(command);
  if (answer.kind === "yes" || answer.kind === "always") return undefined;
  if (answer.kind === "no")
    return answer.reason?.trim()
      ? `refused by the user, who said: ${answer.reason.trim()}`
      : "refused: the user declined this destructive command, so it was not run; do not retry it — ask the user how to proceed";
  return "refused: the user cancelled the turn at the approval prompt, so it was not done";
}
