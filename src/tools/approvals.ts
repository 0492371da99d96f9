// Approvals for the tools that change things: bash, write and edit, and tools declared at run time (an MCP
// server's), which are approved like bash. The policy decides (`all` runs
// everything, `none` is read-only, `ask` asks the user); answers that cover the rest of the session are
// remembered here, per bash command prefix or per file tool. When no one can be asked (no terminal), an
// approval that would be asked is refused at once — never a wait that cannot end.

import type { FileDiff } from "./diff.ts";

export type ApprovalPolicy = "all" | "ask" | "none";

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
  return second && /^[a-z][a-z0-9:_-]*$/i.test(second) ? `${first} ${second}` : first;
}

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
}

export class Approvals {
  private readonly tools = new Set<ApprovalTool>();
  private readonly prefixes = new Set<string>();
  /** runtime tools, and their groups, the user allowed for the rest of the session */
  private readonly runtimeNames = new Set<string>();
  private readonly groups = new Set<string>();

  constructor(private readonly opts: ApprovalsOptions) {}

  get policy(): ApprovalPolicy {
    return this.opts.policy;
  }

  /** Undefined when `req` may go ahead, else the reason it may not, worded for the model. */
  async check(req: ApprovalRequest, command?: string): Promise<string | undefined> {
    const { policy, ask, warn } = this.opts;
    if (policy === "all") return undefined;
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
    if (this.opts.policy !== "ask") return this.opts.policy === "all" ? "everything" : "read-only";
    const parts = [
      ...this.tools,
      ...[...this.prefixes].map((p) => `bash ${p} …`),
      ...this.runtimeNames,
      ...[...this.groups].map((g) => `every tool of ${g}`),
    ];
    return parts.length ? `asks, except: ${parts.join(", ")}` : "asks for bash, write and edit";
  }
}
