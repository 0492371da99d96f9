// The console's conversation loop, whatever draws it: what each submitted line does (slash command,
// template, `!command`, `@path` mentions, a turn), what Ctrl-C / Esc / Ctrl-D mean in each state, steering
// while a turn runs, approvals, switching sessions and the replay of a resumed one.
import {
  AgentSession,
  APPROVAL_LABELS,
  type ApprovalAnswer,
  type ApprovalRequest,
  nextApprovalPolicy,
  type SessionOptions,
} from "../agent/agent-session.ts";
import { errorMessage } from "../contract/errors.ts";
import type { Content } from "../contract/history.ts";
import { CommandRegistry, parseSlash } from "./commands.ts";
import { prepareImages, withImages } from "./images/submit-images.ts";
import { keepUnsent } from "./keep-unsent.ts";
import type { ConsoleIo, InputHandlers, InputSide } from "./ports.ts";
import { replay } from "./replay.ts";
import { runSafetySlash } from "./safety-commands.ts";
import { parseBang, shellResultLines } from "./shell-command.ts";
import { runSlash } from "./slash.ts";

export interface LoopOptions {
  firstMessage?: string;
  /** false when there is no terminal to ask on: approvals are refused at once */
  canAsk: boolean;
  /** quit now, the terminal restored (the input has stopped) */
  forceExit(): void;
}

/** Builds the input, which reports to `handlers` (the loop) and may complete paths through `session`. */
export type MakeInput = (handlers: InputHandlers, session: AgentSession) => InputSide;

/** Two Ctrl-C on an empty prompt within this time exit. */
export const EXIT_CONFIRM_MS = 3000;
const EXIT_HINT = "press Ctrl-C again to exit";

export class SessionLoop implements InputHandlers {
  readonly session: AgentSession;
  readonly input: InputSide;
  /** a turn or a command runs (its cancellation goes to the session) */
  private running = false;
  private lines: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  private exitArmedAt = 0;
  private stuckPresses = 0;
  private registry = new CommandRegistry();
  /** template problems already said in this session */
  private readonly told = new Set<string>();
  private firstSent = false;
  private halted = false;
  /** the console ended by Ctrl-C twice at an idle prompt (exit status 130, as for an interrupt) */
  interruptExit = false;

  constructor(
    private readonly io: ConsoleIo,
    sessionOptions: SessionOptions,
    makeInput: MakeInput,
    private readonly opts: LoopOptions,
  ) {
    this.session = new AgentSession(
      { ...sessionOptions, steering: true },
      { emit: (ev) => io.event(ev), ...(opts.canAsk ? { ask: (req) => this.ask(req) } : {}) },
    );
    this.input = makeInput(this, this.session);
  }

  get busy(): boolean {
    return this.running;
  }

  /** Quit now: the input stopped, the terminal restored. */
  private forceExit(): void {
    this.input.stop();
    this.opts.forceExit();
  }

  private async ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const proposal = this.io.approvalAsked(req);
    let answer: ApprovalAnswer;
    try {
      answer = await this.input.ask(req, proposal);
    } finally {
      this.io.approvalAnswered();
    }
    const { ui } = this.io;
    // A cancel (the session stops the turn) is said by the tool's result line: it was not run, and why.
    if (answer.kind === "cancel") return answer;
    if (answer.kind === "no") {
      ui.print(ui.dim(`  declined${answer.reason ? `: ${ui.clean(answer.reason)}` : ""}`));
    } else
      ui.print(
        ui.dim(
          answer.kind === "yes"
            ? "  approved"
            : req.guard !== undefined
              ? "  approved: this exact command runs without the guard's question in this workspace from now on"
              : "  approved for the rest of the session",
        ),
      );
    return answer;
  }

  /** Open the session the options name; a resumed one replays its last turns. */
  async open(): Promise<void> {
    await this.session.open();
    this.opened();
  }

  /** A session was opened: its templates, the status line, the replay of a resumed one. */
  private opened(): void {
    this.told.clear();
    this.loadTemplates();
    this.io.sessionChanged(this.session);
    if (this.session.resumed) this.showReplay();
  }

  private showReplay(): void {
    const { ui } = this.io;
    const r = replay(this.session.history);
    if (r.earlier > 0)
      ui.print(ui.dim(`… ${r.earlier} earlier message${r.earlier === 1 ? "" : "s"} not shown`));
    for (const item of r.items) {
      if (item.kind === "user") this.io.userLine(item.text, true);
      else if (item.kind === "summary")
        ui.print(ui.dim(`[summary of the earlier conversation] ${ui.clean(item.text)}`));
      else if (item.kind === "event") this.io.event(item.event);
      else if (item.kind === "note")
        ui.print(item.level === "yellow" ? ui.yellow(ui.clean(item.text)) : ui.dim(ui.clean(item.text)));
      else if (item.kind === "shell")
        ui.print(
          ...shellResultLines(
            {
              text: item.text,
              isError: false,
              refused: false,
              duration_ms: item.duration_ms,
              ...(item.exit_code !== undefined ? { exit_code: item.exit_code } : {}),
            },
            ui,
          ),
        );
      else this.io.replyEnded(true);
    }
    // Replayed tool calls and replies start the live activity as the live ones do; none of them runs now.
    this.io.replayEnded();
    if (r.items.length > 0) ui.print(ui.dim("── resumed: the conversation continues here ──"));
  }

  /** What was entered and never dispatched (the first message, lines typed while the engine loaded). */
  unsent(): string[] {
    const first = this.opts.firstMessage && !this.firstSent ? [this.opts.firstMessage] : [];
    return [...first, ...this.lines];
  }

  /** Stop for good (a signal): cancel the running turn, dispatch nothing more. */
  halt(): void {
    this.halted = true;
    if (this.running) this.session.cancel();
    this.close();
  }

  /**
   * The prompt templates read again: one added or changed during the session is a command at once (no
   * /new). A problem is said once per session, not at every reading.
   */
  private loadTemplates(): void {
    const { templates, problems } = this.session.promptTemplates();
    this.registry = new CommandRegistry(templates, () => this.session.mcpPrompts());
    const { ui } = this.io;
    const say = (key: string, line: string) => {
      if (this.told.has(key)) return;
      this.told.add(key);
      ui.print(ui.yellow(line));
    };
    for (const p of problems) say(p, `! prompt template skipped: ${ui.clean(p)}`);
    for (const p of this.registry.shadowed)
      say(`shadowed ${p}`, `! prompt template ${ui.clean(p)} is hidden by the built-in command of that name`);
  }

  /** The commands Tab completes (templates read again: a new one completes at once). */
  commandNames(): string[] {
    this.loadTemplates();
    return this.registry.names();
  }

  commandMenu(): Array<{ name: string; help: string }> {
    this.loadTemplates();
    return this.registry.menu();
  }

  findFiles(query: string): string[] {
    return this.session.findFiles(query);
  }

  completePath(partial: string): string[] {
    return this.session.completePath(partial);
  }

  /** MCP resources for the `@` menu (`SERVER:URI` and their names). */
  mcpResources(): Array<{ value: string; detail: string }> {
    return this.session.mcpResources();
  }

  // ---- input events -------------------------------------------------------------------------------

  line(text: string): void {
    this.exitArmedAt = 0;
    this.input.hint("");
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
    this.session.steer(text);
    const { ui } = this.io;
    this.io.note(
      ui.dim(`(queued for the model at the next safe point: ${ui.clean(text.split("\n")[0] ?? "")})`),
    );
  }

  interrupt(): void {
    if (this.running) {
      this.cancel();
      return;
    }
    if (this.exitArmedAt && Date.now() - this.exitArmedAt < EXIT_CONFIRM_MS) {
      this.interruptExit = true;
      this.close();
      return;
    }
    const armed = Date.now();
    this.exitArmedAt = armed;
    this.input.hint(EXIT_HINT);
    // The hint is true only while a second press would exit: it goes when the window closes.
    setTimeout(() => {
      if (this.exitArmedAt !== armed) return;
      this.exitArmedAt = 0;
      this.input.hint("");
    }, EXIT_CONFIRM_MS).unref?.();
  }

  escape(): void {
    if (this.running) this.cancel();
  }

  expandReasoning(): void {
    this.io.expandReasoning();
  }

  /** Shift+Tab: ask → accept edits → all, from the next call on; the status line shows it at once. */
  cycleMode(): void {
    const next = nextApprovalPolicy(this.session.approvalMode);
    this.session.setApprovalMode(next);
    this.io.sessionChanged(this.session);
    this.input.hint(`approvals: ${APPROVAL_LABELS[next]} (Shift+Tab: next mode)`);
  }

  /** Ctrl-D on an empty prompt, or the input ended. */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  private cancel(): void {
    if (!this.running) return;
    const { ui } = this.io;
    if (this.session.cancelling) {
      // Something does not stop (a worker that ignores the cancel): a third press quits at once. The
      // session is checkpointed at every step, so nothing finished is lost.
      this.stuckPresses++;
      if (this.stuckPresses >= 2) {
        ui.print(ui.yellow("quitting without waiting; the session is saved up to its last step"));
        this.forceExit();
        return;
      }
      this.input.hint("still stopping… press Ctrl-C again to quit at once");
      return;
    }
    this.stuckPresses = 0;
    this.io.cancelRequested();
    this.session.cancel();
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
    if (this.opts.firstMessage) {
      this.firstSent = true;
      await this.dispatch(this.opts.firstMessage);
    }
    for (;;) {
      if (this.halted) return;
      const text = await this.nextLine();
      // A line came (typed now or queued): the prompt no longer waits for the user.
      this.session.waitingForInput(false);
      if (text === undefined || this.halted) {
        if (text !== undefined) this.lines.unshift(text);
        return;
      }
      if (text.trim() === "") continue;
      if ((await this.dispatch(text)) === "exit") return;
    }
  }

  private async dispatch(text: string): Promise<"exit" | undefined> {
    const { ui } = this.io;
    const slash = parseSlash(text);
    if (slash) {
      this.io.userLine(text, false);
      this.loadTemplates();
      this.running = true;
      let outcome: Awaited<ReturnType<typeof runSlash>>;
      try {
        const { input } = this;
        const ctx = {
          session: this.session,
          ui,
          registry: this.registry,
          ...(input.pick ? { pick: input.pick.bind(input) } : {}),
          ...(input.find ? { find: input.find.bind(input) } : {}),
        };
        outcome = (await runSafetySlash(slash, ctx)) ?? (await runSlash(slash, ctx));
      } catch (err) {
        ui.print(ui.red(`✗ ${ui.clean(errorMessage(err))}`));
        return undefined;
      } finally {
        this.running = false;
        // A command may have changed what the status line shows (/model): it shows it now, not at the
        // next reply.
        this.io.sessionChanged(this.session);
      }
      // A compaction showed live activity: end it like a turn.
      if (slash.name === "compact") this.replyEnded();
      if (outcome.kind === "exit") return "exit";
      if (outcome.kind === "done" && outcome.draft !== undefined) this.setDraft(outcome.draft);
      if (outcome.kind === "send") await this.templateTurn(outcome.text, outcome.model);
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
    const imgs = prepareImages(text, this.session.workspace, this.session.model);
    if ("refused" in imgs) {
      ui.print(ui.red(`✗ ${ui.clean(imgs.refused)}`));
      return undefined;
    }
    // A resource that cannot be read stops the message (never sent half-attached); it stays in the input.
    const attached = await this.session.attachMentions(imgs.text).catch((err: unknown) => ({ err }));
    if ("err" in attached) {
      ui.print(ui.red(`✗ ${ui.clean(errorMessage(attached.err))}; not sent`));
      this.setDraft(text);
      return undefined;
    }
    const { text: content, notes } = attached;
    for (const n of [...imgs.notes, ...notes]) ui.print(ui.dim(`  ${ui.clean(n)}`));
    await this.turn(withImages(content, imgs.images), text);
    return undefined;
  }

  private async turn(content: Content, typed = typeof content === "string" ? content : ""): Promise<void> {
    const { ui } = this.io;
    this.running = true;
    const before = this.session.history.length;
    // What the user typed goes with the message when it differs (mentions expanded): /undo gives it back.
    const r = await this.session.send(content, typed === content ? undefined : typed).then(
      (res) => ({ res }),
      (err: unknown) => ({ err }),
    );
    this.running = false;
    // Before the turn's status line: it shows the title this turn may have given the session.
    this.io.sessionChanged(this.session);
    this.replyEnded();
    if ("err" in r) {
      ui.print(ui.red(`✗ ${ui.clean(errorMessage(r.err))}`));
      // Failed before the message joined the conversation (a worker failing at the turn's first safe
      // point): what was typed is shown and kept, never lost with the error.
      const recorded = this.session.history
        .slice(before)
        .some(
          (m) =>
            m.role === "user" &&
            (m.content === content ||
              (typeof content !== "string" && JSON.stringify(m.content) === JSON.stringify(content))),
        );
      if (!recorded)
        for (const l of keepUnsent([typed], this.session.workspace, this.session.dataDir))
          ui.print(ui.yellow(ui.clean(l)));
    } else if (r.res.stop === "cancelled")
      ui.print(ui.yellow("cancelled; the model will see that it was interrupted, and the session is saved"));
  }

  /** A template's message; one that names its model is sent to it, and the session's model comes back. */
  private async templateTurn(text: string, model: string | undefined): Promise<void> {
    const before = this.session.model.name;
    if (!model || model === before) return this.turn(text);
    const { ui } = this.io;
    try {
      this.session.setModel(model);
    } catch (err) {
      ui.print(ui.red(`✗ the template's model: ${ui.clean(errorMessage(err))}; not sent`));
      return;
    }
    this.io.sessionChanged(this.session);
    try {
      await this.turn(text);
    } finally {
      this.session.setModel(before);
      this.io.sessionChanged(this.session);
    }
  }

  private async shell(command: string): Promise<void> {
    const { ui } = this.io;
    this.running = true;
    this.io.shellStarted(command);
    try {
      const out = await this.session.runShell(command, (t) => this.io.shellOutput(t));
      this.io.shellEnded();
      ui.print(...shellResultLines(out, ui));
    } finally {
      this.io.shellEnded();
      this.running = false;
    }
  }

  private async switchTo(resume: string | undefined, clear: boolean): Promise<void> {
    const { ui } = this.io;
    const old = this.session.id;
    if (clear) ui.clearScreen();
    try {
      await this.session.switchTo(resume);
    } catch (err) {
      ui.print(ui.red(`✗ ${ui.clean(errorMessage(err))}; staying in session ${ui.clean(old)}`));
      await this.session.switchTo(old);
      this.opened();
      return;
    }
    this.opened();
    // The session event has said "new session ID" or "resumed session ID" already.
  }

  /** Save and close: lines still queued are shown rather than dropped. */
  async finish(): Promise<void> {
    const { ui } = this.io;
    const unsent = await this.session.close();
    for (const t of unsent) ui.print(ui.yellow(`not sent (typed after the last turn ended): ${ui.clean(t)}`));
  }

  /** The message an /undo took back, in the input box to edit and send again (or shown, without one). */
  private setDraft(text: string): void {
    const { ui } = this.io;
    if (this.input.setDraft) this.input.setDraft(text);
    else ui.print(ui.dim(`  your message, to send again: ${ui.clean(text.split("\n")[0] ?? "")}`));
  }

  /** A live reply ended (or a command that showed activity): the turn is over, the input idle. */
  private replyEnded(): void {
    this.io.replyEnded();
    this.input.idle();
    this.session.waitingForInput(true);
  }
}
