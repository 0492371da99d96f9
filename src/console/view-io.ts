// The session loop's output through the console's render model (ConsoleView on a Screen), with one of two
// inputs: the live prompt (raw keys, drawn in the live region) or plain lines (no live region).
import type { AgentRuntime } from "../agent/setup.ts";
import type { AgentEvent } from "../contract/events.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";
import type { PickRequest } from "./input/picker.ts";
import type { ConsoleIo } from "./session-loop.ts";
import type { ConsoleUi } from "./slash.ts";
import { diffLines } from "./tool-view.ts";
import type { Screen } from "./ui/screen.ts";
import type { ConsoleView } from "./view.ts";

/** What differs between the live prompt and plain line input. */
export interface InputSide {
  ask(req: ApprovalRequest): Promise<ApprovalAnswer>;
  /** a list to choose from, where the input can draw one (the live prompt; plain lines cannot) */
  pick?(req: PickRequest): Promise<number | undefined>;
  hint(text: string): void;
  /** the loop became idle (line input shows its prompt) */
  idle(): void;
  /** put `text` in the input box (where there is one to edit) */
  setDraft?(text: string): void;
}

const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

export class ViewIo implements ConsoleIo {
  input!: InputSide;
  readonly ui: ConsoleUi;
  /** the session the status line's figures belong to */
  private sessionId: string | undefined;

  constructor(
    private readonly view: ConsoleView,
    private readonly screen: Screen,
    private readonly s: Style,
    private readonly write: (s: string) => void,
    private readonly echoTyped: boolean,
  ) {
    this.ui = {
      print: (...lines) => {
        view.print(...lines);
        screen.invalidate();
      },
      clean: sanitizeLine,
      dim: s.dim,
      yellow: s.yellow,
      red: s.red,
      bold: s.bold,
      width: () => screen.width,
      clearScreen: () => {
        screen.flush();
        if (screen.caps.cursor) this.write(CLEAR_SCREEN);
      },
    };
  }

  event(ev: AgentEvent): void {
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
    this.view.turnEnded();
    this.input.idle();
  }

  replayEnded(): void {
    this.view.settle();
  }

  userLine(text: string, replayed: boolean): void {
    // A terminal without a live region has echoed what was typed already.
    if (!replayed && !this.echoTyped) return;
    const [first, ...rest] = sanitize(text).split("\n");
    this.view.print(`${this.s.bold("›")} ${first ?? ""}`, ...rest.map((l) => `  ${l}`));
    this.screen.invalidate();
  }

  hint(text: string): void {
    this.input.hint(text);
  }

  async ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    // A file change is shown as the diff it would make, above the question.
    const change = req.diff?.();
    if (change) this.view.diffAsked(change.path, change.diff);
    if (change)
      this.ui.print(
        ...diffLines(
          { type: "tool_diff", id: "", path: change.path, ...change.diff },
          this.s,
          this.screen.width,
        ),
      );
    this.view.approval(true);
    try {
      return await this.input.ask(req);
    } finally {
      this.view.approval(false);
    }
  }

  /** The input's picker, when it has one (read when a slash command runs: the input is set by then). */
  get pick(): ((req: PickRequest) => Promise<number | undefined>) | undefined {
    return this.input.pick?.bind(this.input);
  }

  setDraft(text: string): void {
    if (this.input.setDraft) this.input.setDraft(text);
    else
      this.ui.print(this.s.dim(`  your message, to send again: ${sanitizeLine(text.split("\n")[0] ?? "")}`));
  }

  sessionChanged(rt: AgentRuntime): void {
    const st = this.view.status.state;
    st.model = rt.agent.model.name;
    st.provider = rt.provider;
    const price = rt.agent.model.price;
    if (price) st.price = price;
    else delete st.price;
    if (rt.session.meta.title) st.title = rt.session.meta.title;
    else delete st.title;
    // Another session (/new, /resume): the status line counts that session's tokens, not the last one's.
    if (rt.session.id !== this.sessionId) {
      this.sessionId = rt.session.id;
      this.view.countUsage(rt.agent.history);
      // The context figure was the last session's; this one's comes with its next budget reading.
      delete st.context;
    }
    this.screen.invalidate();
  }
}
