// Raw-mode keyboard input from the terminal: bracketed paste switched on for the session (and off again on
// every exit path), bytes decoded into keys, and a lone ESC told apart from the start of a sequence by a
// short wait, as terminals send both.
import { type InputEvent, KeyDecoder } from "./keys.ts";

/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
export const ESC_WAIT_MS = 40;

const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

export interface RawInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: "data", cb: (chunk: Buffer | string) => void): unknown;
  off(event: "data", cb: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export class TerminalInput {
  private readonly decoder = new KeyDecoder();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private readonly onData = (chunk: Buffer | string) => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const ev of this.decoder.push(chunk)) this.deliver(ev);
    if (this.decoder.pending) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        for (const ev of this.decoder.flush()) this.deliver(ev);
      }, ESC_WAIT_MS);
    }
  };
  private readonly restore = () => this.stop();

  constructor(
    private readonly input: RawInput,
    private readonly write: (s: string) => void,
    private readonly onEvent: (ev: InputEvent) => void,
  ) {}

  private deliver(ev: InputEvent): void {
    try {
      this.onEvent(ev);
    } catch (err) {
      // A failing handler must not leave the terminal in raw mode: stop, then let the error surface.
      this.stop();
      throw err;
    }
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.input.setRawMode?.(true);
    this.write(PASTE_ON);
    this.input.on("data", this.onData);
    this.input.resume();
    process.once("exit", this.restore);
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.input.off("data", this.onData);
    this.write(PASTE_OFF);
    this.input.setRawMode?.(false);
    this.input.pause();
    process.off("exit", this.restore);
  }
}
