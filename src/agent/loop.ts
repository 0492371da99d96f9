import type { RestoreOutcome } from "../compaction/uncompact.ts";
import { errorMessage } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History, Message } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { type Price, requestCost } from "../lib/request-cost.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { assertValidHistory } from "../lib/validate-history.ts";
import type { ResolvedModel } from "../provider/models.ts";
import { type Provider, ProviderError, type Usage } from "../provider/types.ts";
import type { DeclaredTools } from "../tools/declared-tools.ts";
import type { DispatchSeams, ToolDispatch } from "../tools/dispatch.ts";
import type { ApprovalPolicy, ToolContext, ToolDecl } from "../tools/types.ts";
import type { HookRunner } from "../worker/types.ts";
import { approvalNote, ToldModeReader, toldApprovalMode } from "./approval-note.ts";
import { cutCallResult, cutToolCall } from "./cut-call.ts";
import { interruptedTail, partialReply } from "./interrupt.ts";
import type { AgentCompaction, AgentSession } from "./ports.ts";
import { agentDispatch, type ToolBatchDeps } from "./tool-calls.ts";
import { hookContextMessage, stopHookMessage } from "./user-hook-messages.ts";
import type { UserHooks } from "./user-hooks.ts";

export interface AgentDeps {
  provider: Provider;
  providerName: string;
  /** the resolved model (setup gives its context window; tests may leave it out) */
  model: {
    name: string;
    max_output_tokens?: number;
    context_window?: number;
    /** Anthropic extended thinking's budget (config.json `models`) */
    thinking_budget?: number;
    /** USD per million tokens, when known */
    price?: { input: number; output: number };
  };
  hooks: HookRunner;
  session: AgentSession;
  controller: AgentCompaction;
  /** core + module tool declarations offered to the model */
  tools: ToolDecl[];
  coreToolNames: ReadonlySet<string>;
  toolContext: Omit<ToolContext, "signal">;
  emit: EmitEvent;
  maxTurns: number;
  /** false when no module's before_request acts on this wire format (see beforeRequestWanted) */
  beforeRequest?: boolean;
  /** estimated tokens one tool result may take (result-cap.ts) */
  resultTokenCap?: number;
  /** the user's hooks (hooks.json) on prompts, tool calls and stops */
  userHooks?: UserHooks;
  /** this agent is a child session (a `task`): its stop runs SubagentStop hooks */
  subagent?: boolean;
  /** what tool batches run with beyond the basics: parallel calls, session tools, a narrower tool set */
  toolBatch?: Pick<ToolBatchDeps, "allowed" | "parallel" | "sessionTools" | "onUsage">;
  /** tools declared at run time (offered after `tools`, answered through the same dispatch) */
  declaredTools?: DeclaredTools;
  /** brings `declaredTools` up to date with what the modules declare now (before each model request) */
  refreshTools?: () => Promise<void>;
  /** where hooks and checkpoints plug into every tool call */
  toolSeams?: DispatchSeams;
  /** called when a turn ends, however it ended (the workspace checkpoint after a turn that changed files) */
  onTurnEnd?: () => void;
}

export interface TurnResult {
  text: string;
  stop: "end" | "max_turns" | "cancelled" | "length" | "blocked";
  /** stop "blocked": why a UserPromptSubmit hook did not let the prompt be sent */
  blocked?: string;
  turns: number;
  usage: Usage;
}

const now = () => new Date().toISOString();

function usageMeta(usage: Usage | undefined, price: Price): Record<string, unknown> {
  if (!usage) return {};
  const cost = requestCost(usage, price);
  return { usage, ...(cost !== undefined ? { cost_usd: cost } : {}) };
}

/** Times a reply stopped by the output limit is continued before the turn ends with what there is. */
export const MAX_LENGTH_CONTINUATIONS = 3;
/** What the core says to have a reply cut off by the output limit continued (a user message, marked). */
export const CONTINUE_PROMPT =
  "[Your previous reply was cut off by the output limit. Continue exactly where it stopped, without repeating anything.]";

export class Agent {
  private usage: Usage = { input_tokens: 0, output_tokens: 0 };
  /** what SessionStart hooks said, added to the context with the next prompt */
  private sessionContext: string[] = [];

  private readonly dispatch: ToolDispatch;
  /** the mode the system prompt is taken to state when the history records none (an older session) */
  private readonly startMode: ApprovalPolicy;
  private readonly toldMode = new ToldModeReader();

  constructor(
    private readonly deps: AgentDeps,
    public history: History,
  ) {
    this.startMode = toldApprovalMode(history) ?? deps.toolContext.approvals.policy;
    this.dispatch = agentDispatch({
      hooks: deps.hooks,
      coreNames: deps.coreToolNames,
      ctx: deps.toolContext,
      emit: deps.emit,
      ...(deps.resultTokenCap !== undefined ? { resultTokenCap: deps.resultTokenCap } : {}),
      ...(deps.declaredTools ? { declared: deps.declaredTools } : {}),
      ...(deps.toolSeams ? { seams: deps.toolSeams } : {}),
      ...deps.toolBatch,
    });
  }

  /** The run's tools and the declared ones, for the declared array it was made of. */
  private offered: { declared: readonly ToolDecl[]; all: ToolDecl[] } | undefined;

  /**
   * The tools offered to the model now: the run's, then any declared at run time. The same array while
   * the declarations stay the same, so what is made of it per request (its JSON) is made once.
   */
  private tools(): ToolDecl[] {
    const declared = this.deps.declaredTools?.decls() ?? [];
    if (declared.length === 0) return this.deps.tools;
    if (this.offered?.declared !== declared)
      this.offered = { declared, all: [...this.deps.tools, ...declared] };
    return this.offered.all;
  }

  /**
   * The tool batch's checkpoint while its fsync is still running (see checkpoint): settled before the next
   * model request and before a turn ends.
   */
  private syncing: Promise<void> | undefined;

  /**
   * Save the history. `syncLater`: the log's fsync runs in the background while the turn goes on to its
   * next budget request (a worker round trip), instead of one waiting for the other; the request to the
   * model still waits until the checkpoint is durable (settle).
   */
  private checkpoint(reason: string, syncLater = false): void {
    if (syncLater) {
      const synced = this.deps.session.checkpointSyncLater(this.history);
      const messages = this.history.length;
      const previous = this.syncing;
      this.syncing = Promise.all([previous, synced]).then(() => this.notifyCheckpoint(reason, messages));
      // Awaited by settle(); this only keeps a failure from being reported twice as unhandled.
      this.syncing.catch(() => {});
      return;
    }
    this.deps.session.checkpoint(this.history);
    this.notifyCheckpoint(reason, this.history.length);
  }

  /** Wait until every checkpoint made is durable; throws when an fsync failed. */
  private async settle(): Promise<void> {
    const s = this.syncing;
    this.syncing = undefined;
    if (s) await s;
  }

  private notifyCheckpoint(reason: string, messages: number): void {
    if (this.deps.hooks.hasHook("checkpoint")) {
      // Notification only: the checkpoint is already durable, so a failing observer cannot lose anything.
      this.deps.hooks
        .runHook("checkpoint", { session_id: this.deps.session.id, messages, reason })
        .catch((err: unknown) =>
          this.deps.emit({ type: "notice", level: "warn", message: `checkpoint hook: ${errorMessage(err)}` }),
        );
    }
  }

  /** Messages the user typed while the turn ran, delivered at this safe point by the steering module. */
  /** Messages the steering module has queued since the last call, marked delivered by it. */
  async pullSteered(): Promise<string[]> {
    if (!this.deps.hooks.hasHook("steer")) return [];
    // The worker has already recorded these as delivered: a reply that cannot be read fails (the host
    // checks it against the steer reply schema), never a silent loss of what the user typed.
    const data = await this.deps.hooks.runHook("steer", { messages: [] });
    return (data.messages ?? [])
      .map((m) => (typeof m === "string" ? m : m.text))
      .filter((text) => text.trim() !== "");
  }

  /** A change of approval mode since the model was last told: a note before the next request. */
  private tellApprovalMode(): void {
    const mode = this.deps.toolContext.approvals.policy;
    if (mode === (this.toldMode.read(this.history) ?? this.startMode)) return;
    this.history.push(approvalNote(mode, now()));
    this.checkpoint("approval");
  }

  /** Messages the user typed while the turn ran, delivered at this safe point; how many were added. */
  private async steer(): Promise<number> {
    const texts = await this.pullSteered();
    for (const text of texts) {
      this.history.push({ role: "user", content: text, meta: { ts: now(), steered: true } });
      this.deps.emit({ type: "notice", level: "info", message: `delivered to the model: ${text}` });
    }
    if (texts.length > 0) this.checkpoint("steer");
    return texts.length;
  }

  private async requestHints(): Promise<Record<string, unknown>> {
    if (this.deps.beforeRequest === false || !this.deps.hooks.hasHook("before_request")) return {};
    const data = await this.deps.hooks.runHook("before_request", {
      provider: this.deps.providerName,
      model: this.deps.model.name,
      messages: this.history,
      hints: {},
    });
    return data.hints ?? {};
  }

  /** Text SessionStart hooks printed: it goes into the context just before the next prompt. */
  addSessionContext(texts: readonly string[]): void {
    this.sessionContext.push(...texts.filter((t) => t.trim() !== ""));
  }

  /** Token use of work done for this session elsewhere (a child task's), counted in `/cost`. */
  addUsage(u: Usage | undefined): void {
    if (!u) return;
    this.usage.input_tokens += u.input_tokens;
    this.usage.output_tokens += u.output_tokens;
    if (u.cache_read_tokens)
      this.usage.cache_read_tokens = (this.usage.cache_read_tokens ?? 0) + u.cache_read_tokens;
    if (u.cache_write_tokens)
      this.usage.cache_write_tokens = (this.usage.cache_write_tokens ?? 0) + u.cache_write_tokens;
  }

  /** Manual compaction (`/compact [instructions]`, `i compact`); `signal` cancels its model request. */
  async compact(instructions?: string, signal?: AbortSignal): Promise<void> {
    this.history = await this.deps.controller.compactNow(this.history, this.tools(), {
      ...(instructions ? { instructions } : {}),
      ...(signal ? { signal } : {}),
    });
  }

  /** `/uncompact [N]`: the history before compaction N comes back when it fits (see the controller). */
  async uncompact(n?: number): Promise<RestoreOutcome> {
    const outcome = await this.deps.controller.uncompact(this.history, this.tools(), n);
    if (outcome.ok) this.history = [...outcome.history];
    return outcome;
  }

  /** Undo the last `/uncompact`. */
  recompact(): RestoreOutcome {
    const outcome = this.deps.controller.recompact(this.history);
    if (outcome.ok) this.history = [...outcome.history];
    return outcome;
  }

  /** Totals of this process's model requests (the `/cost` figures). */
  get usageTotals(): Usage {
    return { ...this.usage };
  }

  /** The model of the next request, with its limits. */
  get model(): AgentDeps["model"] {
    return this.deps.model;
  }

  /** Switch the model for the next request (`/model NAME`); compaction follows the new window. */
  setModel(model: ResolvedModel): void {
    this.deps.model = model;
    this.deps.controller.setModel(model);
  }

  /** A budget reading of the history as it is, for the current model (a `budget` event; no compaction). */
  measureContext(): Promise<void> {
    return this.deps.controller.measure(this.history, this.tools());
  }

  /** A message of the user's own that is not a request (the output of `!command`), kept in the context. */
  addUserContext(text: string, meta: Record<string, unknown>): void {
    this.history.push({ role: "user", content: text, meta: { ts: now(), ...meta } });
    this.checkpoint("user");
  }

  /** End a turn the user cancelled: what was shown is kept, and the model will see it was interrupted. */
  private interrupted(partialText: string, turns: number): TurnResult {
    const last = this.history.at(-1);
    if (!(last?.role === "user" && last.meta?.interrupted)) {
      this.history.push(...interruptedTail(partialText));
      this.checkpoint("interrupted");
    }
    return this.finish("", "cancelled", turns);
  }

  /**
   * One user message, then requests and tool batches until the model stops. `typed`: what the user typed,
   * when the content sent differs (attachments added), kept so an undo gives back the typed text.
   */
  async send(content: Message["content"], signal?: AbortSignal, typed?: string): Promise<TurnResult> {
    try {
      return await this.run(content, signal, typed);
    } finally {
      this.deps.onTurnEnd?.();
      await this.settle();
    }
  }

  /** The timestamp of the running (or last) turn's user message: the workspace checkpoint names its turn by it. */
  turnTs: string | undefined;

  private async run(content: Message["content"], signal?: AbortSignal, typed?: string): Promise<TurnResult> {
    const { deps } = this;
    // Lines still queued from before (typed as a cancelled turn ended) come first: the order typed.
    await this.steer();
    const verdict = await deps.userHooks?.userPromptSubmit(contentText(content));
    // A blocked prompt is not sent, and not kept: the hook's reason is what the user sees.
    if (verdict?.blocked !== undefined) return this.finish("", "blocked", 0, verdict.blocked);
    for (const text of this.sessionContext.splice(0))
      this.history.push(hookContextMessage("SessionStart", text, now()));
    this.tellApprovalMode();
    this.turnTs = now();
    this.history.push({
      role: "user",
      content,
      meta: { ts: this.turnTs, ...(typed !== undefined ? { typed } : {}) },
    });
    for (const text of verdict?.context ?? [])
      this.history.push(hookContextMessage("UserPromptSubmit", text, now()));
    this.checkpoint("user");
    let stopHookActive = false;
    let stopBlocks = 0;
    let recovered = false;
    let turns = 0;
    // Length recovery: the text of replies cut off by the output limit, continued up to the bound.
    let continued = "";
    let continuations = 0;
    const toolTurn = this.dispatch.turn(signal);
    while (turns < deps.maxTurns) {
      if (signal?.aborted) return this.interrupted("", turns);
      if (turns > 0 || recovered) await this.steer();
      this.tellApprovalMode();
      turns++;
      deps.emit({ type: "turn_start", turn: turns });
      if (deps.refreshTools) await deps.refreshTools();
      const tools = this.tools();
      this.history = await deps.controller.prepareRequest(this.history, tools, signal);
      if (signal?.aborted) return this.interrupted("", turns);
      assertValidHistory(this.history);
      const hints = await this.requestHints();
      // Nothing goes to the model before the last tool batch is durable.
      await this.settle();
      let res: Awaited<ReturnType<Provider["stream"]>>;
      if (turns === 1) startupMark("first request");
      try {
        res = await deps.provider.stream(
          {
            model: deps.model.name,
            messages: this.history,
            tools,
            ...(deps.model.max_output_tokens ? { max_output_tokens: deps.model.max_output_tokens } : {}),
            ...(deps.model.thinking_budget ? { thinking_budget: deps.model.thinking_budget } : {}),
            ...(signal ? { signal } : {}),
            hints,
          },
          (ev) => {
            if (ev.type === "text_delta") deps.emit({ type: "text_delta", text: ev.text });
            else if (ev.type === "reasoning_delta") deps.emit({ type: "reasoning_delta", text: ev.text });
            else if (ev.type === "retry") deps.emit(ev);
          },
        );
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "cancelled")
          return this.interrupted(err.partialText, turns);
        if (err instanceof ProviderError && err.kind === "context_overflow" && !recovered) {
          // Compact once, retry once: a second overflow means compaction cannot make the request fit.
          recovered = true;
          turns--;
          this.history = await deps.controller.recoverFromOverflow(this.history, tools, signal);
          continue;
        }
        if (err instanceof ProviderError && err.partialText !== "") {
          // The user saw this text; the session keeps it, marked as cut off by the failure.
          this.history.push(...partialReply(err.partialText, `reply cut off here: ${err.message}`));
          this.checkpoint("partial");
        }
        throw err;
      }
      this.addUsage(res.usage);
      if (res.usage) deps.controller.recordUsage(res.usage, this.history.length);
      const assistant: Message = {
        ...res.message,
        // Which model served it and what it cost at that model's price: a trajectory export reads both.
        meta: {
          ...res.message.meta,
          ts: now(),
          model: deps.model.name,
          ...usageMeta(res.usage, deps.model.price),
        },
      };
      this.history.push(assistant);
      deps.emit({ type: "assistant", message: assistant });
      const calls = assistant.tool_calls ?? [];
      if (calls.length === 0) {
        const text = continued + contentText(assistant.content);
        if (res.stop === "length" && continuations < MAX_LENGTH_CONTINUATIONS && !signal?.aborted) {
          continuations++;
          continued = text;
          deps.emit({
            type: "notice",
            level: "warn",
            message: `the reply reached the output limit; asking the model to continue it (${continuations}/${MAX_LENGTH_CONTINUATIONS})`,
          });
          this.history.push({
            role: "user",
            content: CONTINUE_PROMPT,
            meta: { ts: now(), continuation: true },
          });
          this.checkpoint("continuation");
          continue;
        }
        this.checkpoint("final");
        // The end of a turn is a safe point too: what the user typed meanwhile is answered, not left queued.
        if (!signal?.aborted && (await this.steer()) > 0) continue;
        const goOn = signal?.aborted
          ? undefined
          : await deps.userHooks?.stop(text, stopHookActive, deps.subagent === true);
        if (goOn !== undefined && !this.stopBlockedTooOften(goOn.hook, ++stopBlocks)) {
          // A Stop hook blocked the stop: the agent goes on, told why.
          stopHookActive = true;
          this.history.push(stopHookMessage(goOn.message, deps.subagent === true, now()));
          this.checkpoint("stop_hook");
          continue;
        }
        if (res.stop === "length") {
          deps.emit({
            type: "notice",
            level: "warn",
            message: `the reply was still cut off by the output limit after ${MAX_LENGTH_CONTINUATIONS} continuations`,
          });
        }
        return this.finish(text, res.stop === "length" ? "length" : "end", turns);
      }
      const cut = cutToolCall(calls, res.stop);
      const results = await toolTurn.runBatch(cut ? calls.slice(0, -1) : calls);
      if (cut) results.push(cutCallResult(cut, deps.emit));
      this.history.push(...results);
      this.checkpoint("tool_batch", true);
      if (signal?.aborted) return this.interrupted("", turns);
    }
    deps.emit({
      type: "notice",
      level: "warn",
      message: `stopped after ${deps.maxTurns} model requests (--max-turns)`,
    });
    return this.finish("", "max_turns", turns);
  }

  /** Past the cap of consecutive Stop blocks in a turn: the turn ends anyway, said in one line. */
  private stopBlockedTooOften(hook: string, blocks: number): boolean {
    const limit = this.deps.userHooks?.stopBlockLimit ?? Number.POSITIVE_INFINITY;
    if (blocks <= limit) return false;
    this.deps.emit({
      type: "notice",
      level: "warn",
      message: `hook ${hook}: blocked the stop ${limit} times in a row and blocks it again; the turn ends here (raise stop_block_limit in hooks.json to allow more)`,
    });
    return true;
  }

  private finish(text: string, stop: TurnResult["stop"], turns: number, blocked?: string): TurnResult {
    const usage = { ...this.usage };
    this.deps.emit({ type: "done", text, turns, usage, stop_reason: stop });
    return { text, stop, turns, usage, ...(blocked !== undefined ? { blocked } : {}) };
  }
}
