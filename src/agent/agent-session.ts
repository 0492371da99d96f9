// The one door to a session for the front ends (the console, print mode): every operation on the session
// is a method here, and everything the session says arrives as a typed AgentEvent through `ports.emit`.
// A class with methods, not a serialisable `Op` union: both front ends run in this process, and an approval
// question carries a function (the diff, computed only when asked) that no message could. What the front
// ends need from the core's other folders (types included) is exported from this module, so a change
// inside the core stops here. An operation added later (undo, rewind, fork, uncompact, MCP status…) is one
// method below, run through `run` when it may be cancelled.
//
// Holding the open session (opening, switching, closing it, where it stands, the one running operation)
// is session-lifecycle.ts's; the longer operations are in files of their own, named below.
import { CompactionError } from "../compaction/errors.ts";
import type { RestoreOutcome } from "../compaction/uncompact.ts";
import { loadConfig } from "../config/load.ts";
import { configDir } from "../config/paths.ts";
import type { CompactionsReport } from "../contract/compactions.ts";
import { errorMessage } from "../contract/errors.ts";
import type { Message } from "../contract/history.ts";
import { type LoadedAgents, loadAgents } from "../lib/agent-definitions.ts";
import { compactionsReport } from "../session/compaction-report.ts";
import { Session, type SessionMeta } from "../session/session.ts";
import { titleFrom } from "../session/title.ts";
import {
  APPROVAL_LABELS,
  type ApprovalAnswer,
  type ApprovalPolicy,
  type ApprovalRequest,
  nextApprovalPolicy,
} from "../tools/approvals.ts";
import { resolveInWorkspace } from "../tools/paths.ts";
import { type ConsoleSettings, readConsoleSettings } from "./console-settings.ts";
import { fileCandidates } from "./file-candidates.ts";
import type { TurnResult } from "./loop.ts";
import { type LspView, lspView } from "./lsp-view.ts";
import { type McpView, mcpView, trustProjectMcp } from "./mcp-view.ts";
import type { Expanded } from "./mentions.ts";
import { attachAllMentions, attachResourcesOnly } from "./message-attachments.ts";
import { modelChoices, switchModel } from "./model-choices.ts";
import { pathCandidates } from "./path-candidates.ts";
import { acceptPending, type PendingProjectFiles, pendingProjectFiles } from "./project-files.ts";
import { loadTemplates, type PromptTemplate } from "./prompt-templates.ts";
import {
  type ConfirmOverwrite,
  exportConversation,
  forkAt,
  type RewindMode,
  type RewindOutcome,
  redoLast,
  rewindTurn,
  type TurnRow,
  turnsOf,
  undoLast,
} from "./safety-ops.ts";
import { SessionLifecycle } from "./session-lifecycle.ts";
import type { CompactOutcome, ModelChoice, ModelInfo, ShellOutcome } from "./session-types.ts";
import { runShellTurn } from "./shell-turn.ts";
import { enqueue } from "./steering-queue.ts";

export {
  type ConsoleSettings,
  readConsoleSettings,
  readKeybindings,
  saveTheme,
  type ThemeSetting,
} from "./console-settings.ts";
export {
  type ListedMeta,
  type SessionPreview,
  savedSessionPreview,
  savedSessions,
} from "./saved-sessions.ts";
export type * from "./session-types.ts";
export type {
  ApprovalAnswer,
  ApprovalPolicy,
  ApprovalRequest,
  ConfirmOverwrite,
  Expanded,
  LspView,
  McpView,
  PromptTemplate,
  RestoreOutcome,
  RewindMode,
  RewindOutcome,
  SessionMeta,
  TurnResult,
  TurnRow,
};
export { APPROVAL_LABELS, nextApprovalPolicy };

export class AgentSession extends SessionLifecycle {
  /** what projectFilesToTrust last showed: exactly that is accepted on yes */
  private shownPending: PendingProjectFiles | undefined;

  /** This workspace's saved sessions, newest first. */
  listSessions(): SessionMeta[] {
    return Session.list(this.dataDir, this.live.workspace);
  }

  /**
   * Accept this workspace's own hooks and agents (what `i trust` does) and reopen this session so they
   * apply now; returns what was accepted, one line per file, hook and agent (empty: nothing pending).
   */
  async trustProjectFiles(): Promise<string[]> {
    const pending = pendingProjectFiles(configDir(), this.workspace);
    if (pending.files.length === 0) return [];
    acceptPending(configDir(), this.workspace, pending);
    // A session with nothing in it yet is not kept when it closes: a fresh one takes its place.
    const rt = this.openRuntime;
    if (rt) await this.switchTo(rt.agent.history.length > 1 ? rt.session.id : undefined);
    return pending.lines;
  }

  /**
   * This workspace's own files (hooks, agents, MCP servers) waiting for the user's acceptance, with what
   * each would run (untrusted text: clean it before showing it); undefined when none is pending, or
   * when one cannot be read (opening the session says what is wrong with it).
   */
  projectFilesToTrust(): { lines: string[] } | undefined {
    try {
      const pending = pendingProjectFiles(configDir(), this.workspace);
      if (pending.files.length === 0) return undefined;
      this.shownPending = pending;
      return { lines: pending.lines };
    } catch {
      return undefined;
    }
  }

  /** Accept what projectFilesToTrust showed, before the session opens (a file changed since stays untrusted). */
  acceptProjectFiles(): void {
    if (this.shownPending) acceptPending(configDir(), this.workspace, this.shownPending);
    this.shownPending = undefined;
  }

  /** The user said no: the session goes on without them, and does not warn about them again. */
  declineProjectFiles(): void {
    this.shownPending = undefined;
    this.options = { ...this.options, declinedProjectFiles: true };
  }

  /** The sub-agents the task tool can run here (built-in, config_dir/agents, an accepted .i/agents). */
  agentDefinitions(): LoadedAgents {
    return loadAgents(configDir(), this.workspace);
  }

  /** The prompt templates of the workspace and config_dir, and why any were skipped. */
  promptTemplates(): { templates: PromptTemplate[]; problems: string[] } {
    return loadTemplates(this.live.workspace, configDir());
  }

  /** Workspace files and directories matching `query` fuzzily, best first (the `@` menu). */
  findFiles(query: string): string[] {
    return fileCandidates(resolveInWorkspace(this.workspace, "."), query);
  }

  /** Workspace paths that complete a partial `@path` (also before a session is open). */
  completePath(partial: string): string[] {
    return pathCandidates(this.workspace, partial);
  }

  // ---- operations -----------------------------------------------------------------------------------

  /**
   * A turn: the message, the model's replies and its tool calls, until it ends or is cancelled. `typed`:
   * what the user typed, when `content` differs from it (attachments added).
   */
  send(content: Message["content"], typed?: string): Promise<TurnResult> {
    const rt = this.live;
    return this.run((signal) => rt.agent.send(content, signal, typed));
  }

  /** A line for the model while a turn runs: queued, delivered at the next safe point, never lost. */
  steer(text: string): void {
    if (!this.queue) throw new Error("this session takes no steering (no queue)");
    enqueue(this.queue, text);
  }

  /** config.json `show_reasoning` (default true): whether the console shows the model's reasoning. */
  get showReasoning(): boolean {
    return loadConfig(configDir()).config.show_reasoning !== false;
  }

  /** What bash, write and edit need now: ask, accept edits, all, read-only. */
  get approvalMode(): ApprovalPolicy {
    return this.live.approvals.policy;
  }

  /** Change what bash, write and edit need, from the next call on (Shift+Tab, `/approve MODE`). */
  setApprovalMode(mode: ApprovalPolicy): void {
    this.live.approvals.setPolicy(mode);
  }

  /** `/rename TITLE`: the session's title from now on (at most a line of ~60 characters). */
  rename(title: string): string {
    const clean = titleFrom(title);
    if (!clean) throw new Error("a title needs some text: /rename TITLE");
    this.live.session.rename(clean);
    return clean;
  }

  /**
   * The models /model offers: config.json's, the provider's own list (when it answers in time), and the
   * built-in table, each once, with its window and price when known; `source` says where it came from.
   */
  async modelChoices(): Promise<ModelChoice[]> {
    return modelChoices(this.live);
  }

  /** Switch the model for the next request (recorded in the session); throws on a name that is no model. */
  setModel(name: string): ModelInfo {
    return switchModel(this.live, name);
  }

  /**
   * The context measured again for the current model (after setModel), said as a `budget` event. A
   * reading that fails says so as a notice: the figure stays the old one until the next request.
   */
  async measureContext(): Promise<void> {
    try {
      await this.live.agent.measureContext();
    } catch (err) {
      this.emit({ type: "notice", level: "warn", message: `context not measured: ${errorMessage(err)}` });
    }
  }

  async compact(instructions?: string): Promise<CompactOutcome> {
    const rt = this.live;
    return this.run(async (signal) => {
      try {
        await rt.agent.compact(instructions, signal);
        return "done";
      } catch (err) {
        if (signal.aborted) return "cancelled";
        if (err instanceof CompactionError) return "failed";
        throw err;
      }
    });
  }

  /** Every compaction of this session with what it kept, summarised and dropped (from its log). */
  compactions(): CompactionsReport {
    const rt = this.live;
    return compactionsReport(rt.session.id, rt.session.compactionLog());
  }

  /** `/uncompact [N]`: the history before compaction N back, when it fits the current model. */
  uncompact(n?: number): Promise<RestoreOutcome> {
    const rt = this.live;
    return this.run(() => rt.agent.uncompact(n));
  }

  /** `/uncompact undo`: the last uncompaction undone. */
  recompact(): RestoreOutcome {
    return this.live.agent.recompact();
  }

  /** The console's prompt waits for the user's input after a reply (true), or a message was sent (false). */
  waitingForInput(waiting: boolean): void {
    this.openRuntime?.waitingForInput(waiting);
  }

  /** What config.json says about the console itself (title, notifications, theme). */
  consoleSettings(): ConsoleSettings {
    return readConsoleSettings();
  }

  /** `!command`: run through the bash tool; its output joins the context for the next message. */
  runShell(command: string, onOutput?: (text: string) => void): Promise<ShellOutcome> {
    const rt = this.live;
    return this.run((signal) => runShellTurn(rt, command, signal, onOutput));
  }

  // ---- the safety net -------------------------------------------------------------------------------

  /** The user's messages, oldest first, with the files each turn changed (the /rewind picker). */
  turns(): TurnRow[] {
    return turnsOf(this.live);
  }

  /** `/undo`: the files and the conversation back to before the last turn (or the last /rewind undone). */
  undo(confirm: ConfirmOverwrite): Promise<RewindOutcome> {
    const rt = this.live;
    return this.run(() => undoLast(rt, confirm));
  }

  /** `/redo`: the last undo or rewind reversed. */
  redo(confirm: ConfirmOverwrite): Promise<RewindOutcome> {
    const rt = this.live;
    return this.run(() => redoLast(rt, confirm));
  }

  /** `/rewind`: code, conversation or both back to before the user's message `turn` (0: the first). */
  rewind(turn: number, mode: RewindMode, confirm: ConfirmOverwrite): Promise<RewindOutcome> {
    const rt = this.live;
    return this.run(() => rewindTurn(rt, turn, mode, confirm));
  }

  /** `/fork`: a new saved session with the conversation up to before message `turn` (all: undefined). */
  fork(turn?: number): { id: string; messages: number } {
    return forkAt(this.live, this.dataDir, turn);
  }

  /** `/export [FILE]`: the conversation written to a new file; returns its path. */
  exportTo(file?: string): Promise<string> {
    return exportConversation(this.live, file);
  }

  // ---- MCP ------------------------------------------------------------------------------------------

  /** `/mcp`: the configured MCP servers and where each stands. */
  mcpServers(): Promise<McpView> {
    const rt = this.live;
    return mcpView(rt.workspace, rt.runtimeStatus);
  }

  /** `/lsp`: the language servers and where each stands. */
  lspServers(): Promise<LspView> {
    return lspView(this.live.host);
  }

  /** MCP prompts, offered as slash commands `/NAME ARGS`: name, description, arguments (as of the last ask). */
  mcpPrompts(): { name: string; description: string; args: string }[] {
    return (this.openRuntime?.runtimePrompts?.prompts() ?? []).map((p) => ({
      name: p.name,
      description: p.description,
      args: p.arguments.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name}]`)).join(" "),
    }));
  }

  /** The text of MCP prompt `name` with the words typed after it, to send as the user's message. */
  expandMcpPrompt(name: string, argsText: string): Promise<string> {
    const p = this.live.runtimePrompts;
    if (!p) return Promise.reject(new Error(`no prompt /${name}`));
    return p.expandPrompt(name, argsText);
  }

  /** `/mcp trust`: accept this workspace's .mcp.json as it is now (its servers start before the next request). */
  trustProjectMcp(): { file: string; accepted: boolean; servers: string[] } {
    return trustProjectMcp(this.live.workspace);
  }

  /**
   * `@path` and `@SERVER:URI` mentions: the files' text and the MCP resources' contents attached to the
   * message, with a note per mention. Rejects (one line) when a resource cannot be read: nothing is sent
   * half-attached.
   */
  async attachMentions(text: string): Promise<Expanded> {
    return attachAllMentions(this.live, text);
  }

  /** Print mode's mentions: only `@SERVER:URI` resources (a `-p` prompt's `@path` stays text). */
  async attachResourceMentions(text: string): Promise<Expanded> {
    return attachResourcesOnly(this.live, text);
  }

  /** MCP resources for the `@` menu: `SERVER:URI` and what the server calls it (as of the last ask). */
  mcpResources(): { value: string; detail: string }[] {
    return (this.openRuntime?.runtimeResources?.list() ?? []).map((r) => ({
      value: `${r.server}:${r.uri}`,
      detail: r.name,
    }));
  }
}
