// The console's conversation loop, whatever draws it: what each submitted line does (slash command,
// template, `!command`, `@path` mentions, a turn), what Ctrl-C / Esc / Ctrl-D mean in each state, steering
// while a turn runs, approvals, switching sessions and the replay of a resumed one.
import type { AgentRuntime, SetupOptions } from "../agent/setup.ts";
import { loadConfig } from "../config/load.ts";
import { configDir, dataDir } from "../config/paths.ts";
import { errorMessage } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";
import { CommandRegistry, parseSlash } from "./commands.ts";
import type { PickRequest } from "./input/picker.ts";
import { expandMentions } from "./mentions.ts";
import { enqueue, removeQueue } from "./queue.ts";
import { replay } from "./replay.ts";
import { parseBang, runUserCommand } from "./shell-command.ts";
import { type ConsoleUi, runSlash } from "./slash.ts";
import { loadTemplates } from "./templates.ts";

/** How the loop shows things; implemented over the console's render model. */
export interface ConsoleIo {
  ui: ConsoleUi;
  /** an agent event, rendered like live output */
  event(ev: AgentEvent): void;
  /** a reply ended (or, replayed, only its text block): close the text block */
  replyEnded(replayed?: boolean): void;
  /** a resumed session's replay is over: nothing it showed is running (no spinner, no open block) */
  replayEnded(): void;
  /** what the user sent (or sent earlier, when a resumed session is replayed), for the transcript */
  userLine(text: string, replayed: boolean): void;
  /** a transient hint under the input ("press Ctrl-C again to exit"); "" clears it */
  hint(text: string): void;
  /** ask an approval question through the input */
  ask(req: ApprovalRequest): Promise<ApprovalAnswer>;
  /** a list to choose one row from, when the input can show one */
  readonly pick?: ((req: PickRequest) => Promise<number | undefined>) | undefined;
  /** the session changed (status line: model, title) */
  sessionChanged(rt: AgentRuntime): void;
}

export interface LoopOptions extends Omit<SetupOptions, "emit" | "steeringQueue" | "ask"> {
  firstMessage?: string;
  queue: string;
  /** false when there is no terminal to ask on: approvals are refused at once */
  canAsk: boolean;
}

/** Two Ctrl-C on an empty prompt within this time exit. */
export const EXIT_CONFIRM_MS = 3000;

export class SessionLoop {
  rt!: AgentRuntime;
  private running: AbortController | undefined;
  private lines: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  private exitArmedAt = 0;
  private stuckPresses = 0;
  /** quit now, the terminal restored (set by the console) */
  forceExit: () => void = () => process.exit(130);
  private registry = new CommandRegistry();
  private context: { total: number; hard_limit: number; ratio: number } | undefined;

  constructor(
    private readonly io: ConsoleIo,
    private readonly opts: LoopOptions,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  private readonly emit = (ev: AgentEvent) => {
    if (ev.type === "budget") this.context = { total: ev.total, hard_limit: ev.hard_limit, ratio: ev.ratio };
    this.io.event(ev);
  };

  private readonly ask = async (req: ApprovalRequest): Promise<ApprovalAnswer> => {
    const answer = await this.io.ask(req);
    const { ui } = this.io;
    if (answer.kind === "cancel") {
      // Deny-and-cancel: the tool is refused (nothing runs) and the whole turn stops.
      // The tool's result line says it was not run, and why.
      this.running?.abort();
    } else if (answer.kind === "no") {
      ui.print(ui.dim(`  declined${answer.reason ? `: ${ui.clean(answer.reason)}` : ""}`));
    } else ui.print(ui.dim(answer.kind === "yes" ? "  approved" : "  approved for the rest of the session"));
    return answer;
  };

  /** Open (or switch to) a session; a resumed one replays its last turns. */
  async open(over: Partial<SetupOptions> = {}): Promise<void> {
    const setup = { ...this.opts, ...over };
    // Loaded here, not at startup: the console's input is live before the engine is.
    const { setupAgent } = await import("../agent/setup.ts");
    this.rt = await setupAgent({
      ...setup,
      emit: this.emit,
      ...(this.opts.canAsk ? { ask: this.ask } : {}),
      steeringQueue: this.opts.queue,
    });
    const { templates, problems } = loadTemplates(this.rt.workspace, configDir());
    this.registry = new CommandRegistry(templates);
    const { ui } = this.io;
    for (const p of problems) ui.print(ui.yellow(`! prompt template skipped: ${ui.clean(p)}`));
    for (const p of this.registry.shadowed)
      ui.print(ui.yellow(`! prompt template ${ui.clean(p)} is hidden by the built-in command of that name`));
    this.io.sessionChanged(this.rt);
    if (setup.resume || setup.continue) this.showReplay();
  }

  private showReplay(): void {
    const { ui } = this.io;
    const r = replay(this.rt.agent.history);
    if (r.earlier > 0)
      ui.print(ui.dim(`… ${r.earlier} earlier message${r.earlier === 1 ? "" : "s"} not shown`));
    for (const item of r.items) {
      if (item.kind === "user") this.io.userLine(item.text, true);
      else if (item.kind === "summary")
        ui.print(ui.dim(`[summary of the earlier conversation] ${ui.clean(item.text.split("\n")[0] ?? "")}`));
      else if (item.kind === "event") this.io.event(item.event);
      else this.io.replyEnded(true);
    }
    // Replayed tool calls and replies start the live activity as the live ones do; none of them runs now.
    this.io.replayEnded();
    if (r.items.length > 0) ui.print(ui.dim("── resumed: the conversation continues here ──"));
  }

  /** The commands Tab completes. */
  commandNames(): string[] {
    return this.registry.names();
  }

  // ---- input events -------------------------------------------------------------------------------

  line(text: string): void {
    this.exitArmedAt = 0;
    this.io.hint("");
    if (this.running && text.trim() !== "") {
      if (parseSlash(text) || parseBang(text) !== undefined) {
        this.io.ui.print(
          this.io.ui.yellow("a turn is running: commands wait until it ends (Esc cancels it)"),
        );
        this.lines.push(text);
        return;
      }
      this.steer(text);
      return;
    }
    this.lines.push(text);
    this.wake?.();
  }

  /** A line for the model while a turn runs (or typed at an approval prompt): queued, never lost. */
  steer(text: string): void {
    enqueue(this.opts.queue, text);
    const { ui } = this.io;
    ui.print(ui.dim(`(queued for the model at the next safe point: ${ui.clean(text.split("\n")[0] ?? "")})`));
  }

  interrupt(): void {
    if (this.running) {
      this.cancel();
      return;
    }
    if (this.exitArmedAt && Date.now() - this.exitArmedAt < EXIT_CONFIRM_MS) {
      this.close();
      return;
    }
    this.exitArmedAt = Date.now();
    this.io.hint("press Ctrl-C again to exit");
  }

  escape(): void {
    if (this.running) this.cancel();
  }

  /** Ctrl-D on an empty prompt, or the input ended. */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  private cancel(): void {
    if (!this.running) return;
    const { ui } = this.io;
    if (this.running.signal.aborted) {
      // Something does not stop (a worker that ignores the cancel): a third press quits at once. The
      // session is checkpointed at every step, so nothing finished is lost.
      this.stuckPresses++;
      if (this.stuckPresses >= 2) {
        ui.print(ui.yellow("quitting without waiting; the session is saved up to its last step"));
        this.forceExit();
        return;
      }
      this.io.hint("still stopping… press Ctrl-C again to quit at once");
      return;
    }
    this.stuckPresses = 0;
    this.running.abort();
    ui.print(ui.yellow("cancelling…"));
  }

  // ---- the loop --------------------------------------------------------------------------------------

  private async nextLine(): Promise<string | undefined> {
    while (this.lines.length === 0 && !this.closed) {
      await new Promise<void>((r) => {
        this.wake = r;
      });
      this.wake = undefined;
    }
    return this.lines.shift();
  }

  async run(): Promise<void> {
    if (this.opts.firstMessage) await this.dispatch(this.opts.firstMessage);
    for (;;) {
      const text = await this.nextLine();
      if (text === undefined) return;
      if (text.trim() === "") continue;
      if ((await this.dispatch(text)) === "exit") return;
    }
  }

  private async dispatch(text: string): Promise<"exit" | undefined> {
    const { ui } = this.io;
    const slash = parseSlash(text);
    if (slash) {
      this.io.userLine(text, false);
      const ctl = new AbortController();
      this.running = ctl;
      let outcome: Awaited<ReturnType<typeof runSlash>>;
      try {
        outcome = await runSlash(slash, {
          rt: this.rt,
          ui,
          registry: this.registry,
          config: loadConfig(configDir()).config,
          configDir: configDir(),
          dataDir: dataDir(),
          signal: ctl.signal,
          ...(this.io.pick ? { pick: this.io.pick } : {}),
          ...(this.context ? { context: this.context } : {}),
        });
      } catch (err) {
        ui.print(ui.red(`✗ ${ui.clean(errorMessage(err))}`));
        return undefined;
      } finally {
        this.running = undefined;
      }
      // A compaction showed live activity: end it like a turn.
      if (slash.name === "compact") this.io.replyEnded();
      if (outcome.kind === "exit") return "exit";
      if (outcome.kind === "send") await this.turn(outcome.text);
      if (outcome.kind === "switch") await this.switchTo(outcome.resume, outcome.clear === true);
      return undefined;
    }
    const bang = parseBang(text);
    if (bang !== undefined) {
      this.io.userLine(text, false);
      await this.shell(bang);
      return undefined;
    }
    this.io.userLine(text, false);
    const { text: content, notes } = expandMentions(text, this.rt.workspace);
    for (const n of notes) ui.print(ui.dim(`  ${ui.clean(n)}`));
    await this.turn(content);
    return undefined;
  }

  private async turn(content: string): Promise<void> {
    const { ui } = this.io;
    const ctl = new AbortController();
    this.running = ctl;
    const r = await this.rt.agent.send(content, ctl.signal).then(
      (res) => ({ res }),
      (err: unknown) => ({ err }),
    );
    this.running = undefined;
    // Before the turn's status line: it shows the title this turn may have given the session.
    this.io.sessionChanged(this.rt);
    this.io.replyEnded();
    if ("err" in r) ui.print(ui.red(`✗ ${ui.clean(errorMessage(r.err))}`));
    else if (r.res.stop === "cancelled")
      ui.print(ui.yellow("cancelled; the model will see that it was interrupted, and the session is saved"));
  }

  private async shell(command: string): Promise<void> {
    const { ui } = this.io;
    const ctl = new AbortController();
    this.running = ctl;
    try {
      const { result, text, message } = await runUserCommand(command, this.rt.toolContext, ctl.signal);
      const shown = text.split("\n");
      ui.print(
        ...shown.slice(0, 40).map((l) => `  ${result.is_error ? ui.red("│") : ui.dim("│")} ${ui.clean(l)}`),
      );
      if (shown.length > 40)
        ui.print(ui.dim(`  … ${shown.length - 40} more lines (all of it is in the context)`));
      if (text.startsWith("refused")) return;
      this.rt.agent.addUserContext(message, { shell_command: command });
      ui.print(ui.dim("  (the output is in the context for the next message)"));
    } finally {
      this.running = undefined;
    }
  }

  private async switchTo(resume: string | undefined, clear: boolean): Promise<void> {
    const { ui } = this.io;
    const old = this.rt;
    await old.close();
    if (clear) ui.clearScreen();
    try {
      await this.open(resume ? { resume, continue: false } : { resume: undefined, continue: false });
    } catch (err) {
      ui.print(ui.red(`✗ ${ui.clean(errorMessage(err))}; staying in session ${ui.clean(old.session.id)}`));
      await this.open({ resume: old.session.id, continue: false });
      return;
    }
    // The session event has said "new session ID" or "resumed session ID" already.
  }

  /** Save and close: lines still queued are shown rather than dropped. */
  async finish(): Promise<void> {
    const { ui } = this.io;
    const unsent = await this.rt.agent.pullSteered().catch(() => [] as string[]);
    for (const t of unsent) ui.print(ui.yellow(`not sent (typed after the last turn ended): ${ui.clean(t)}`));
    await this.rt.close();
    removeQueue(this.opts.queue);
  }
}
