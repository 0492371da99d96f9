// One ACP session: an ordinary `i` session driven through the same facade as the console (AgentSession),
// its events streamed to the client as `session/update`s, its approvals asked through
// `session/request_permission`, its turns cancelled by `session/cancel`.
import {
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  RequestError,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import {
  AgentSession,
  type ApprovalAnswer,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ModelChoice,
  type SessionOptions,
  type TurnResult,
} from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import { SkillCatalog } from "../lib/skill-catalog.ts";
import { editorFiles } from "./editor-files.ts";
import { editorTerminal } from "./editor-terminal.ts";
import { configOptions, modeState } from "./modes.ts";
import { answerOf, permissionOptions, permissionToolCall } from "./permission.ts";
import { PromptProblem, promptMessage } from "./prompt-content.ts";
import { replayUpdates } from "./replay.ts";
import { availableCommands, slashCommand, type UserCommands } from "./slash-commands.ts";
import { UpdateMapper } from "./updates.ts";

/** keep: the model sees images; describe: they are described for it; else it gets none. */
export const takesImages = (v: string | undefined) => v === "keep" || v === "describe";

const STOP: Record<TurnResult["stop"], StopReason> = {
  end: "end_turn",
  length: "max_tokens",
  max_turns: "max_turn_requests",
  cancelled: "cancelled",
  blocked: "refusal",
};

export class AcpSession {
  readonly facade: AgentSession;
  private readonly mapper: UpdateMapper;
  /** updates said before the client knows the session's id: sent once session/new has been answered */
  private held: SessionUpdate[] | undefined = [];
  private turn: Promise<StopReason> | undefined;
  /** the running turn's stop: aborts questions still waiting for the client's answer */
  private stop: AbortController | undefined;
  private models: ModelChoice[] = [];
  private title: string | undefined;
  /** the commands last offered, to offer them again only when they change */
  private commandsKey = "";
  /** template problems already said in this session */
  private readonly said = new Set<string>();
  private readonly skills = new SkillCatalog();
  private closed = false;

  constructor(
    options: SessionOptions,
    private readonly client: AgentContext,
    caps: ClientCapabilities | undefined,
    /** where the user's skills live (config_dir) */
    private readonly configDir: string,
  ) {
    this.mapper = new UpdateMapper(
      () => this.facade.workspace,
      (u) => this.send(u),
      caps?.session?.notices != null,
    );
    const editor = editorFiles(client, caps, () => this.id);
    const terminal = editorTerminal(
      client,
      caps,
      () => this.id,
      (id) => this.mapper.terminal(id),
    );
    const withEditor = { ...options, ...(editor ? { editor } : {}), ...(terminal ? { terminal } : {}) };
    this.facade = new AgentSession(withEditor, {
      emit: (ev: AgentEvent) => this.mapper.event(ev),
      ask: (req) => this.ask(req),
    });
  }

  get id(): string {
    return this.facade.id;
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  private send(update: SessionUpdate): void {
    if (this.held) {
      this.held.push(update);
      return;
    }
    this.client.notify("session/update", { sessionId: this.id, update }).catch(() => {});
  }

  /** The client has the session's id: what was held goes out, then everything as it happens. */
  release(replay = false): void {
    const held = this.held ?? [];
    this.held = undefined;
    if (replay) for (const u of replayUpdates(this.facade.history, this.facade.workspace)) this.send(u);
    for (const u of held) this.send(u);
    this.title = this.facade.title;
    this.offerCommands();
    void this.loadModels();
  }

  /** The models the provider lists come after the answer (a slow /models must not delay session/new). */
  private async loadModels(): Promise<void> {
    try {
      this.models = await this.facade.modelChoices();
      this.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
    } catch {
      // the chooser keeps the configured and current model
    }
  }

  modes(): SessionModeState {
    return modeState(this.facade.approvalMode);
  }

  configOptions(): SessionConfigOption[] {
    return configOptions(this.facade.approvalMode, this.facade.model.name, this.models);
  }

  setMode(mode: ApprovalPolicy): void {
    this.facade.setApprovalMode(mode);
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
  }

  setModel(name: string): void {
    try {
      this.facade.setModel(name);
    } catch (err) {
      throw RequestError.invalidParams(undefined, errorMessage(err));
    }
  }

  private async ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const stop = this.stop?.signal;
    if (stop?.aborted) return { kind: "cancel" };
    const names =
      req.tool === "tool"
        ? [req.name ?? ""]
        : req.tool === "bash"
          ? ["bash"]
          : ["write", "edit", "apply_patch"];
    const call = this.mapper.openCall(names);
    const ws = this.facade.workspace;
    const question = this.client.request("session/request_permission", {
      sessionId: this.id,
      toolCall: permissionToolCall(req, call?.id ?? `approval-${Date.now()}`, ws),
      options: permissionOptions(req),
    });
    // A client that never answers still lets the turn be cancelled: the question ends with the turn.
    const cancelled = new Promise<ApprovalAnswer>((resolve) => {
      stop?.addEventListener("abort", () => resolve({ kind: "cancel" }), { once: true });
    });
    try {
      return await Promise.race([question.then(answerOf), cancelled]);
    } catch (err) {
      return { kind: "no", reason: `the editor did not answer the question: ${errorMessage(err)}` };
    }
  }

  /** One prompt turn; a second one while it runs is refused. */
  prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn)
      throw new RequestError(
        -32600,
        "a prompt is already running in this session; wait for its answer or cancel it",
      );
    this.stop = new AbortController();
    const turn = this.runTurn(blocks).finally(() => {
      this.turn = undefined;
      this.stop = undefined;
      this.mapper.reset();
    });
    this.turn = turn;
    return turn;
  }

  /**
   * The user's templates (read again each time: one added while the editor runs is a command at once) and,
   * when the session runs the skills module, the skills. A template that cannot be read is said once.
   */
  private userCommands(): UserCommands {
    const { templates, problems } = this.facade.promptTemplates();
    for (const p of problems)
      if (!this.said.has(p)) {
        this.said.add(p);
        this.mapper.notice("warning", `prompt template skipped: ${p}`);
      }
    const withSkills = this.facade.status().modules.some((m) => m.name === "skills");
    return {
      templates,
      skills: withSkills ? this.skills.list(this.configDir, this.facade.workspace) : [],
    };
  }

  private async runTurn(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const slash = await slashCommand(
      this.facade,
      blocks,
      () => this.userCommands(),
      (text) => this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }),
    );
    if (slash === "done") return "end_turn";
    let message: ReturnType<typeof promptMessage>;
    try {
      message = promptMessage(
        slash?.blocks ?? blocks,
        this.facade.workspace,
        takesImages(this.facade.model.images),
      );
    } catch (err) {
      if (err instanceof PromptProblem) throw RequestError.invalidParams(undefined, err.message);
      throw err;
    }
    // A template that names its model is sent to it, and the session's model comes back after.
    const before = this.facade.model.name;
    const model = slash?.model && slash.model !== before ? slash.model : undefined;
    if (model)
      try {
        this.facade.setModel(model);
      } catch (err) {
        throw RequestError.invalidParams(undefined, `the template's model: ${errorMessage(err)}; not sent`);
      }
    try {
      const r = await this.facade.send(message.content, message.typed);
      if (r.stop === "blocked" && r.blocked) this.mapper.notice("warning", r.blocked);
      return STOP[r.stop];
    } catch (err) {
      if (this.stop?.signal.aborted) return "cancelled";
      throw RequestError.internalError(undefined, errorMessage(err));
    } finally {
      if (model) this.facade.setModel(before);
      // A session closed under the turn (the agent is shutting down) has nothing more to say.
      if (!this.closed) this.afterTurn();
    }
  }

  /** What a turn may have changed: the title, the cost, the commands (MCP prompts arrive with servers). */
  private afterTurn(): void {
    const title = this.facade.title;
    if (title !== this.title) {
      this.title = title;
      this.send({
        sessionUpdate: "session_info_update",
        title: title ?? null,
        updatedAt: new Date().toISOString(),
      });
    }
    const cost = this.facade.sessionUsage?.cost_usd;
    const context = this.facade.status().context;
    if (context && cost !== undefined)
      this.send({
        sessionUpdate: "usage_update",
        used: context.total,
        size: this.facade.model.context_window ?? context.hard_limit,
        cost: { amount: cost, currency: "USD" },
      });
    this.offerCommands();
  }

  /** The commands, again only when they changed. */
  private offerCommands(): void {
    const commands = availableCommands(this.facade, this.userCommands());
    const key = JSON.stringify(commands);
    if (key === this.commandsKey) return;
    this.commandsKey = key;
    this.send({ sessionUpdate: "available_commands_update", availableCommands: commands });
  }

  /** Stop the running turn: the model stream, running tools and their process groups, open questions. */
  cancel(): void {
    this.stop?.abort();
    this.facade.cancel();
  }

  /** Cancel, wait for the turn to end (at most `ms`), save and close. */
  async close(ms = 1000): Promise<void> {
    this.closed = true;
    this.cancel();
    const turn = this.turn;
    if (turn)
      await Promise.race([turn.catch(() => "cancelled"), new Promise((r) => setTimeout(r, ms).unref?.())]);
    await this.facade.close().catch(() => []);
  }
}
