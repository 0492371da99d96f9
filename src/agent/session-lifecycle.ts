// The part of the front ends' session door (AgentSession) that holds the open session: opening,
// switching and closing it, what it says (every event through `ports.emit`, each request's tokens into
// the totals), where it stands, and the one operation that may run at a time. The operations the front
// ends call are AgentSession's, built on this.
//
// One instance serves a console's whole life: /new and /resume switch the session it drives, and its
// steering queue outlives each of them (what one steering worker delivered, the next never redelivers).
import { dataDir } from "../config/paths.ts";
import type { AgentEvent } from "../contract/events.ts";
import type { History } from "../contract/history.ts";
import type { Usage } from "../contract/usage.ts";
import { type Price, requestCost } from "../lib/request-cost.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";
import { resolveWorkspace } from "./options.ts";
import type {
  ContextReading,
  ModelInfo,
  SessionOptions,
  SessionPorts,
  SessionStatus,
} from "./session-types.ts";
import type { AgentRuntime, SetupOptions } from "./setup.ts";
import { queuePath, removeQueue } from "./steering-queue.ts";
import { UsageLedger } from "./usage-ledger.ts";

export class SessionLifecycle {
  /** where sessions (and the console's input history) live */
  readonly dataDir = dataDir();
  private rt: AgentRuntime | undefined;
  private lastId = "";
  private wasResumed = false;
  private launchWorkspace: string | undefined;
  protected readonly queue: string | undefined;
  /** the running operation (a turn, a compaction, a `!command`): cancel() aborts it */
  private op: AbortController | undefined;
  private reading: ContextReading | undefined;
  /** This run's requests by the model that served them (/cost's breakdown). */
  readonly runUsage = new UsageLedger();

  constructor(
    protected options: SessionOptions,
    private readonly ports: SessionPorts,
  ) {
    this.queue = options.steering ? queuePath(this.dataDir) : undefined;
  }

  protected readonly emit = (ev: AgentEvent): void => {
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

  /** The open session's runtime; throws when none is open. */
  protected get live(): AgentRuntime {
    if (!this.rt) throw new Error("no session is open");
    return this.rt;
  }

  /** The open session's runtime, if one is open. */
  protected get openRuntime(): AgentRuntime | undefined {
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

  /** The price of the model serving the session now: read per reply, so without the rest of status(). */
  get modelPrice(): Price {
    return this.live.agent.model.price;
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

  // ---- the running operation ------------------------------------------------------------------------

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
  protected async run<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.op) throw new Error("another operation is still running in this session");
    const ctl = new AbortController();
    this.op = ctl;
    try {
      return await fn(ctl.signal);
    } finally {
      this.op = undefined;
    }
  }
}
