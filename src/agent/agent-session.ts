// The one door to a session for the front ends (the console, print mode): every operation on the session
// is a method here, and everything the session says arrives as a typed AgentEvent through `ports.emit`.
// A class with methods, not a serialisable `Op` union: both front ends run in this process, and an approval
// question carries a function (the diff, computed only when asked) that no message could. What the front
// ends need from the core's other folders (types included) is exported from this module, so a change
// inside the core stops here. An operation added later (undo, rewind, fork, uncompact, MCP status…) is one
// method below, run through `run` when it may be cancelled.
//
// One AgentSession serves a console's whole life: /new and /resume switch the session it drives, and its
// steering queue outlives each of them (what one steering worker delivered, the next never redelivers).
import { CompactionError } from "../compaction/errors.ts";
import type { RestoreOutcome } from "../compaction/uncompact.ts";
import { loadConfig } from "../config/load.ts";
import { configDir, dataDir } from "../config/paths.ts";
import type { CompactionsReport } from "../contract/compactions.ts";
import { errorMessage } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import type { History, Message } from "../contract/history.ts";
import type { Usage } from "../contract/usage.ts";
import { type LoadedAgents, loadAgents } from "../lib/agent-definitions.ts";
import { requestCost } from "../lib/request-cost.ts";
import { MODEL_TABLE } from "../provider/model-table.ts";
import { resolveModel } from "../provider/models.ts";
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
import {
  type Expanded,
  expandMentions,
  MENTION_MAX_FILE_BYTES,
  MENTION_MAX_TOTAL_BYTES,
} from "./mentions.ts";
import { resolveWorkspace } from "./options.ts";
import { pathCandidates } from "./path-candidates.ts";
import { acceptPending, type PendingProjectFiles, pendingProjectFiles } from "./project-files.ts";
import { loadTemplates, type PromptTemplate } from "./prompt-templates.ts";
import { attachResources } from "./resource-mentions.ts";
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
import type {
  CompactOutcome,
  ContextReading,
  ModelChoice,
  ModelInfo,
  SessionOptions,
  SessionPorts,
  SessionStatus,
  ShellOutcome,
} from "./session-types.ts";
import type { AgentRuntime, SetupOptions } from "./setup.ts";
import { enqueue, queuePath, removeQueue } from "./steering-queue.ts";
import { UsageLedger } from "./usage-ledger.ts";
import { runUserCommand } from "./user-command.ts";

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

export class AgentSession {
  /** where sessions (and the console's input history) live */
  readonly dataDir = dataDir();
  private rt: AgentRuntime | undefined;
  /** what projectFilesToTrust last showed: exactly that is accepted on yes */
  private shownPending: PendingProjectFiles | undefined;
  private lastId = "";
  private wasResumed = false;
  private launchWorkspace: string | undefined;
  private readonly queue: string | undefined;
  /** the running operation (a turn, a compaction, a `!command`): cancel() aborts it */
  private op: AbortController | undefined;
  private reading: ContextReading | undefined;
  /** This run's requests by the model that served them (/cost's breakdown). */
  readonly runUsage = new UsageLedger();

  constructor(
    private options: SessionOptions,
    private readonly ports: SessionPorts,
  ) {
    this.queue = options.steering ? queuePath(this.dataDir) : undefined;
  }

  private readonly emit = (ev: AgentEvent): void => {
    if (ev.type === "budget") this.reading = { total: ev.total, hard_limit: ev.hard_limit, ratio: ev.ratio };
    if (ev.type === "assistant") this.countRequest(ev.message.meta?.usage as Usage | undefined);
    this.ports.emit(ev);
  };

  /** A request's tokens join the session's totals, priced by the model that served it (the current one). */
  private countRequest(u: Usage | undefined): void {
    const rt = this.rt;
    if (!rt || !u || typeof u.input_tokens !== "number") return;
    const price = rt.agent.model.price;
    const out = u.output_tokens ?? 0;
    const cost = requestCost(u, price);
    rt.session.addUsage(u.input_tokens, out, cost);
    this.runUsage.add(rt.agent.model.name, u.input_tokens, out, cost);
  }

  private readonly ask = async (req: ApprovalRequest): Promise<ApprovalAnswer> => {
    const answer = await (this.ports.ask as NonNullable<SessionPorts["ask"]>)(req);
    // Deny-and-cancel: the tool is refused (nothing runs) and the whole turn stops.
    if (answer.kind === "cancel") this.op?.abort();
    return answer;
  };

  private get live(): AgentRuntime {
    if (!this.rt) throw new Error("no session is open");
    return this.rt;
  }

  // ---- lifecycle ------------------------------------------------------------------------------------

  /** Open the session the options name: a new one, the newest (-c) or one by id (-r). */
  open(): Promise<void> {
    return this.start({});
  }

  /**
   * Close this session and open another: the saved one `resume` names, else a new one. When that fails,
   * no session is open (switch back to the previous id to stay in it) and the error is thrown.
   */
  async switchTo(resume?: string): Promise<void> {
    await this.closeRuntime();
    await this.start({ resume, continue: false });
  }

  /** Save and close. Lines typed for the model that it never received are returned, to be shown. */
  async close(): Promise<string[]> {
    const unsent = this.rt ? await this.rt.agent.pullSteered().catch(() => [] as string[]) : [];
    await this.closeRuntime();
    if (this.queue) removeQueue(this.queue);
    return unsent;
  }

  private async start(over: Partial<SetupOptions>): Promise<void> {
    const { steering: _, ...setup } = { ...this.options, ...over };
    // Loaded here, not at startup: the console's input is live before the engine is.
    const { setupAgent } = await import("./setup.ts");
    this.reading = undefined;
    this.rt = await setupAgent({
      ...setup,
      emit: this.emit,
      ...(this.ports.ask ? { ask: this.ask } : {}),
      ...(this.queue ? { steeringQueue: this.queue } : {}),
    });
    this.lastId = this.rt.session.id;
    this.wasResumed = !!(setup.resume || setup.continue || setup.requireExisting);
  }

  private async closeRuntime(): Promise<void> {
    const rt = this.rt;
    this.rt = undefined;
    await rt?.close();
  }

  // ---- state ----------------------------------------------------------------------------------------

  /** The session's id (after close, the id of the one last open). */
  get id(): string {
    return this.rt?.session.id ?? this.lastId;
  }

  /** True when the open session was resumed (its last turns are worth replaying), false when new. */
  get resumed(): boolean {
    return this.wasResumed;
  }

  get title(): string | undefined {
    return this.live.session.meta.title;
  }

  /** The open session's workspace; before one is open, the one the options name. */
  get workspace(): string {
    if (this.rt) return this.rt.workspace;
    this.launchWorkspace ??= resolveWorkspace(this.options.workspace);
    return this.launchWorkspace;
  }

  get model(): ModelInfo {
    return this.live.agent.model;
  }

  get provider(): string {
    return this.live.provider;
  }

  get history(): Readonly<History> {
    return this.live.agent.history;
  }

  /**
   * Tokens of every request of this session, across resumes and compactions, and their cost (each
   * request at its own model's price); undefined for a session saved before they were counted.
   */
  get sessionUsage(): { input_tokens: number; output_tokens: number; cost_usd?: number } | undefined {
    return this.live.session.usage;
  }

  /** Tokens of every request this run made. */
  get usageTotals(): Usage {
    return this.live.agent.usageTotals;
  }

  status(): SessionStatus {
    const rt = this.live;
    return {
      id: rt.session.id,
      workspace: rt.workspace,
      model: rt.agent.model,
      provider: rt.provider,
      profile: rt.manifest.profile,
      modules: rt.manifest.modules,
      messages: rt.agent.history.length,
      ...(this.reading ? { context: this.reading } : {}),
      approvals: rt.approvals.describe(),
    };
  }

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
    if (this.rt) await this.switchTo(this.rt.agent.history.length > 1 ? this.rt.session.id : undefined);
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

  get busy(): boolean {
    return this.op !== undefined;
  }

  /** An operation runs and was asked to stop (it has not stopped yet). */
  get cancelling(): boolean {
    return this.op?.signal.aborted === true;
  }

  /** Ask the running operation to stop; nothing when none runs. */
  cancel(): void {
    this.op?.abort();
  }

  /** One operation at a time, cancellable through cancel(). */
  private async run<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.op) throw new Error("another operation is still running in this session");
    const ctl = new AbortController();
    this.op = ctl;
    try {
      return await fn(ctl.signal);
    } finally {
      this.op = undefined;
    }
  }

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
    const rt = this.live;
    const cfgDir = configDir();
    const config = loadConfig(cfgDir).config;
    const served = await rt.listModels();
    const seen = new Set<string>();
    const out: ModelChoice[] = [];
    const add = (name: string, source: ModelChoice["source"]) => {
      if (seen.has(name)) return;
      seen.add(name);
      let info: ModelInfo | undefined;
      try {
        info = resolveModel(name, config, cfgDir);
      } catch {
        info = undefined;
      }
      out.push({
        name,
        source,
        ...(info?.context_window ? { context_window: info.context_window } : {}),
        ...(info?.price ? { price: info.price } : {}),
      });
    };
    for (const name of Object.keys(config.models ?? {})) add(name, "config");
    for (const name of served) add(name, "provider");
    for (const name of Object.keys(MODEL_TABLE)) add(name, "built-in");
    return out;
  }

  /** Switch the model for the next request (recorded in the session); throws on a name that is no model. */
  setModel(name: string): ModelInfo {
    const rt = this.live;
    const cfgDir = configDir();
    const next = resolveModel(name, loadConfig(cfgDir).config, cfgDir);
    rt.agent.setModel(next);
    rt.session.recordModel(next.name, rt.provider, rt.baseUrl);
    return next;
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
    this.rt?.waitingForInput(waiting);
  }

  /** What config.json says about the console itself (title, notifications, theme). */
  consoleSettings(): ConsoleSettings {
    return readConsoleSettings();
  }

  /** `!command`: run through the bash tool; its output joins the context for the next message. */
  runShell(command: string, onOutput?: (text: string) => void): Promise<ShellOutcome> {
    const rt = this.live;
    return this.run(async (signal) => {
      const started = Date.now();
      let exitCode: number | null | undefined;
      const watch = { output: (t: string) => onOutput?.(t), exit: (c: number | null) => (exitCode = c) };
      // The command may change files: the workspace is checkpointed first, like a turn's first change,
      // and its message carries the same time, so /undo and /rewind treat it as a turn of its own.
      const ts = new Date().toISOString();
      rt.checkpoints.beforeChange(ts);
      try {
        const { result, text, message } = await runUserCommand(command, rt.toolContext, signal, watch);
        const refused = text.startsWith("refused");
        const durationMs = Date.now() - started;
        // Kept with the message, so a resumed session shows the exit and the time as they were.
        const shown = { ...(exitCode !== undefined ? { exit_code: exitCode } : {}), duration_ms: durationMs };
        if (!refused) rt.agent.addUserContext(message, { shell_command: command, ts, ...shown });
        return { text, isError: result.is_error === true, refused, ...shown };
      } finally {
        rt.checkpoints.afterTurn();
      }
    });
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
  exportTo(file?: string): string {
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
    return (this.rt?.runtimePrompts?.prompts() ?? []).map((p) => ({
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
    const files = expandMentions(text, this.live.workspace);
    return this.withResources(text, files, MENTION_MAX_TOTAL_BYTES - (files.used ?? 0));
  }

  /** Print mode's mentions: only `@SERVER:URI` resources (a `-p` prompt's `@path` stays text). */
  attachResourceMentions(text: string): Promise<Expanded> {
    return this.withResources(text, { text, notes: [] }, MENTION_MAX_TOTAL_BYTES);
  }

  /** `base` with the resources `typed` mentions (never a mention inside an attached file) appended. */
  private async withResources(typed: string, base: Expanded, budget: number): Promise<Expanded> {
    const r = await attachResources(typed, this.live.runtimeResources, budget, MENTION_MAX_FILE_BYTES);
    const notes = [...base.notes, ...r.notes];
    if (r.blocks.length === 0) return { ...base, notes };
    return { text: `${base.text}\n\n${r.blocks.join("\n\n")}`, notes, used: (base.used ?? 0) + r.used };
  }

  /** MCP resources for the `@` menu: `SERVER:URI` and what the server calls it (as of the last ask). */
  mcpResources(): { value: string; detail: string }[] {
    return (this.rt?.runtimeResources?.list() ?? []).map((r) => ({
      value: `${r.server}:${r.uri}`,
      detail: r.name,
    }));
  }
}
