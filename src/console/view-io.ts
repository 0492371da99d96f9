// The session loop's output (ConsoleIo) through the console's render model: ConsoleView on a Screen.
import { APPROVAL_LABELS, type ApprovalRequest } from "../agent/agent-session.ts";
import type { AgentEvent } from "../contract/events.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { lastPlan } from "./plan-view.ts";
import type { ConsoleIo, ConsoleUi, SessionState } from "./ports.ts";
import { proposalLines } from "./proposal-view.ts";
import type { TerminalSignals } from "./terminal-signals.ts";
import type { Screen } from "./ui/screen.ts";
import type { ConsoleView } from "./view.ts";

export class ViewIo implements ConsoleIo {
  readonly ui: ConsoleUi;
  /** the session the status line's figures belong to */
  private sessionId: string | undefined;
  /** lines held until something else is shown (the logo: a console that fails to start shows none) */
  private held: string[] = [];

  constructor(
    private readonly view: ConsoleView,
    private readonly screen: Screen,
    private readonly s: Style,
    private readonly echoTyped: boolean,
    private readonly signals?: TerminalSignals,
  ) {
    this.ui = {
      print: (...lines) => {
        this.release();
        view.print(...lines);
        screen.invalidate();
      },
      clean: sanitizeLine,
      dim: s.dim,
      yellow: s.yellow,
      red: s.red,
      bold: s.bold,
      width: () => screen.width,
      clearScreen: () => screen.clear(),
    };
  }

  /** Lines shown before whatever is shown first (and never, when nothing is). */
  preface(lines: string[]): void {
    this.held = lines;
  }

  /** Show the held lines now (the console has started). */
  release(): void {
    if (this.held.length === 0) return;
    const lines = this.held;
    this.held = [];
    this.view.print(...lines);
    this.screen.invalidate();
  }

  event(ev: AgentEvent): void {
    this.release();
    if (ev.type === "turn_start") this.signals?.turnStarted();
    if (ev.type === "retry" && ev.discarded) {
      this.view.onEvent(ev);
      this.ui.print(this.s.dim("  (the partial reply above is discarded; the reply starts over)"));
      return;
    }
    this.view.onEvent(ev);
  }

  replyEnded(replayed = false): void {
    // A replayed reply only closes its text block; a live one ends the turn (and shows the status).
    if (replayed) {
      this.view.print();
      return;
    }
    this.signals?.turnEnded();
    this.view.turnEnded();
  }

  replayEnded(): void {
    this.view.settle();
  }

  userLine(text: string, replayed: boolean): void {
    // A terminal without a live region has echoed what was typed already.
    if (!replayed && !this.echoTyped) return;
    this.release();
    const [first, ...rest] = sanitize(text).split("\n");
    this.view.print(`${this.s.bold("›")} ${first ?? ""}`, ...rest.map((l) => `  ${l}`));
    this.screen.invalidate();
  }

  approvalAsked(req: ApprovalRequest): string[] {
    this.view.approval(true);
    this.signals?.approval(true, req.summary);
    // A file change is shown as the diff it would make, inside the question: a proposal, not a result.
    const change = req.diff?.();
    return change ? proposalLines(change.path, change.diff, this.s, this.screen.width) : [];
  }

  expandReasoning(): void {
    this.view.expandReasoning();
    this.screen.invalidate();
  }

  note(line: string): void {
    this.release();
    this.view.note(line);
    this.screen.invalidate();
  }

  shellStarted(command: string): void {
    this.view.shellStarted(command);
    this.screen.invalidate();
  }

  shellOutput(text: string): void {
    this.view.shellOutput(text);
  }

  shellEnded(): void {
    this.view.shellEnded();
    this.screen.invalidate();
  }

  cancelRequested(): void {
    this.view.cancelRequested();
  }

  approvalAnswered(): void {
    this.view.approval(false);
    this.signals?.approval(false);
  }

  sessionChanged(session: SessionState): void {
    const st = this.view.status.state;
    const model = session.model;
    st.model = model.name;
    st.provider = session.provider;
    if (model.price) st.price = model.price;
    else delete st.price;
    st.approval = APPROVAL_LABELS[session.approvalMode];
    const title = session.title;
    if (title) st.title = title;
    else delete st.title;
    this.signals?.session(title);
    // Another session (/new, /resume): the status line counts that session's tokens, not the last one's.
    if (session.id !== this.sessionId) {
      this.sessionId = session.id;
      this.view.countUsage(session.history, session.sessionUsage);
      // The session's plan, as the model last sent it (a resumed session shows it again).
      this.view.setPlan(lastPlan(session.history));
      // The context figure was the last session's; this one's comes with its next budget reading.
      delete st.context;
    }
    this.screen.invalidate();
  }
}
