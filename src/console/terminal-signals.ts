// What the console tells the terminal beyond the transcript: the window title ("i — fix the parser
// (working)"), and a bell or desktop notification when a long turn ends or an approval has waited, so a
// person in another window knows to come back. Every text here comes from the session (its title is the
// user's first message), so it is made inert before it goes inside an escape sequence.
import { sanitizeLine } from "../terminal/sanitize.ts";
import { truncate } from "../terminal/width.ts";

export type NotifyMethod = "bell" | "osc9" | "osc777" | "off";

export interface SignalSettings {
  title: boolean;
  notify: NotifyMethod;
  afterMs: number;
}

export interface SignalConfig {
  terminal_title?: boolean;
  notifications?: { method?: NotifyMethod; after_seconds?: number; in_tmux?: boolean };
}

export const DEFAULT_NOTIFY_AFTER_SECONDS = 20;

/** The settings in force: config.json's, with inside tmux no notification unless asked for. */
export function signalSettings(cfg: SignalConfig, env: Record<string, string | undefined>): SignalSettings {
  const n = cfg.notifications ?? {};
  const inTmux = Boolean(env.TMUX) && n.in_tmux !== true;
  return {
    title: cfg.terminal_title !== false,
    notify: inTmux ? "off" : (n.method ?? "bell"),
    afterMs: (n.after_seconds ?? DEFAULT_NOTIFY_AFTER_SECONDS) * 1000,
  };
}

const BEL = "\u0007";
const OSC = "\u001b]";
/** xterm's title stack: the title as it was is saved at start and given back at exit. */
const PUSH_TITLE = "\u001b[22;0t";
const POP_TITLE = "\u001b[23;0t";
const TITLE_WIDTH = 80;
const OFF: SignalSettings = { title: false, notify: "off", afterMs: 0 };

/** Text safe inside an OSC string: one line, no control characters (sanitizeLine shows them inert). */
function inert(text: string, width = TITLE_WIDTH): string {
  return truncate(sanitizeLine(text), width);
}

export class TerminalSignals {
  private state: "idle" | "working" | "approval" = "idle";
  private sessionTitle: string | undefined;
  private turnStart = 0;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  private started = false;

  /** Off until `start`: the settings come from config.json, read once the session is open. */
  private settings: SignalSettings = OFF;

  constructor(
    private readonly write: (s: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  start(settings: SignalSettings): void {
    if (this.started) return;
    this.settings = settings;
    this.started = true;
    if (this.settings.title) this.write(PUSH_TITLE);
    this.showTitle();
  }

  /** The session's title changed (or another session is open). */
  session(title: string | undefined): void {
    this.sessionTitle = title;
    this.showTitle();
  }

  /** A model turn started; the first after idle starts the clock. */
  turnStarted(): void {
    if (this.state === "idle") this.turnStart = this.now();
    this.state = "working";
    this.showTitle();
  }

  turnEnded(): void {
    if (this.state === "idle") return;
    const took = this.now() - this.turnStart;
    this.turnStart = 0;
    this.state = "idle";
    this.clearWait();
    this.showTitle();
    if (took >= this.settings.afterMs) this.notify(`i: done${this.titled()}`);
  }

  /** An approval is asked (waiting) or answered. One that waits `afterMs` is announced. */
  approval(waiting: boolean, what = ""): void {
    this.clearWait();
    this.state = waiting ? "approval" : this.turnStart ? "working" : "idle";
    this.showTitle();
    if (!waiting || this.settings.notify === "off") return;
    const say = () => this.notify(`i: approval needed${what ? `: ${what}` : ""}`);
    if (this.settings.afterMs === 0) say();
    else this.waitTimer = setTimeout(say, this.settings.afterMs);
    this.waitTimer?.unref?.();
  }

  /** The terminal's own title back, timers gone. */
  stop(): void {
    this.clearWait();
    if (this.started && this.settings.title) this.write(POP_TITLE);
    this.started = false;
    this.settings = OFF;
  }

  private clearWait(): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
  }

  private titled(): string {
    return this.sessionTitle ? ` — ${this.sessionTitle}` : "";
  }

  private showTitle(): void {
    if (!this.settings.title || !this.started) return;
    const state =
      this.state === "working" ? " (working)" : this.state === "approval" ? " (approval needed)" : "";
    this.write(`${OSC}0;${inert(`i${this.titled()}${state}`)}${BEL}`);
  }

  private notify(text: string): void {
    const body = inert(text, 200);
    switch (this.settings.notify) {
      case "bell":
        this.write(BEL);
        return;
      case "osc9":
        this.write(`${OSC}9;${body}${BEL}`);
        return;
      case "osc777":
        this.write(`${OSC}777;notify;i;${body}${BEL}`);
        return;
      case "off":
        return;
    }
  }
}
