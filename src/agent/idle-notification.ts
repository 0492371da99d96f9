// Claude Code's second Notification: the prompt has waited for the user's input a while after a reply
// (60 s there). The console says when its prompt waits and when a message is sent; after `delayMs` of
// waiting, once per wait, the user's Notification hooks are told, with Claude Code's kind of message.

export const IDLE_MESSAGE = "i is waiting for your input";
export const DEFAULT_IDLE_SECONDS = 60;

export class IdleNotification {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly notify: (message: string) => Promise<void>,
  ) {}

  /** The prompt waits for the user (true) or a message was sent (false). */
  waiting(on: boolean): void {
    if (!on) {
      this.stop();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      // A failing hook is the hooks module's warning, shown as any other; nothing here to add.
      void this.notify(IDLE_MESSAGE).catch(() => {});
    }, this.delayMs);
    // Never what keeps the console running.
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
