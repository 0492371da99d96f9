// The interactive console: the logo, then the conversation (src/console/session-loop.ts) drawn through one
// Screen (src/console/ui/screen.ts). With a live region the input is the prompt editor (raw keys); without
// one (a pipe, TERM=dumb) it is plain lines. While a turn runs, typed lines go to the steering queue.

import { resolveWorkspace } from "../agent/options.ts";
import type { SetupOptions } from "../agent/setup.ts";
import { dataDir } from "../config/paths.ts";
import { sanitize } from "../terminal/sanitize.ts";
import { detectCaps, makeStyle } from "../terminal/style.ts";
import { onExitSignals } from "./exit-signals.ts";
import { keepUnsent } from "./keep-unsent.ts";
import { LineInput } from "./line-input.ts";
import { LiveInput } from "./live-input.ts";
import { queuePath } from "./queue.ts";
import { logoLines } from "./render.ts";
import { SessionLoop } from "./session-loop.ts";
import { processTerminal, Screen } from "./ui/screen.ts";
import { ConsoleView } from "./view.ts";
import { ViewIo } from "./view-io.ts";

export interface ConsoleOptions extends Omit<SetupOptions, "emit" | "steeringQueue" | "ask"> {
  firstMessage?: string;
}

export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const out = process.stdout;
  const queue = queuePath(dataDir());
  const caps = detectCaps(out);
  const s = makeStyle(caps);
  const screen = new Screen(processTerminal(out), caps);
  const interactive = !!process.stdin.isTTY;
  const live = caps.cursor && interactive;
  const view = new ConsoleView(screen, s, {
    model: opts.model ?? "",
    provider: opts.provider ?? "",
    tokensIn: 0,
    tokensOut: 0,
  });
  const io = new ViewIo(view, screen, s, (t) => out.write(t), live || !interactive);
  // Without a terminal there is no one to ask: approvals that would be asked are refused at once.
  const loop = new SessionLoop(io, { ...opts, queue, canAsk: interactive });
  const lineInput = live ? undefined : new LineInput(io.ui, interactive);
  const liveInput = live ? new LiveInput(screen, s, loop, resolveWorkspace(opts.workspace)) : undefined;
  io.input = (liveInput ?? lineInput) as NonNullable<typeof liveInput | typeof lineInput>;
  lineInput?.attach(loop);
  /** The terminal as it was (raw mode off, bracketed paste off, cursor shown); never throws (a hung-up tty). */
  const restore = () => {
    for (const f of [() => liveInput?.stop(), () => lineInput?.close(), () => screen.stop()])
      try {
        f();
      } catch {}
  };
  loop.forceExit = () => {
    restore();
    process.exit(130);
  };
  const signals = onExitSignals(
    () => loop.halt(),
    (code) => {
      restore();
      process.exit(code);
    },
  );
  io.ui.print(...logoLines(io.ui.width()).map((l, i) => (i === 1 ? s.bold(l) : s.dim(l))), "");
  // The input is live before the engine loads: typing starts at once, and what is entered meanwhile waits.
  liveInput?.start();
  screen.flush();
  try {
    await loop.open();
  } catch (err) {
    signals.off();
    liveInput?.stop();
    lineInput?.close();
    for (const l of keepUnsent(loop.unsent(), resolveWorkspace(opts.workspace)))
      io.ui.print(s.yellow(sanitize(l)));
    screen.stop();
    throw err;
  }
  view.countUsage(loop.rt.agent.history);
  view.showStatus();
  const tips = ["/help lists the commands and keys", "Esc or Ctrl-C cancels a running turn"];
  const oneLine = tips.join(" · ");
  io.ui.print(...(oneLine.length <= io.ui.width() ? [oneLine] : tips).map((t) => s.dim(t)));
  io.input.idle();
  screen.flush();
  try {
    if (signals.code === undefined) await loop.run();
  } finally {
    liveInput?.stop();
    lineInput?.close();
    await loop.finish();
    // Lines typed but never sent (a signal ended the console first) are kept, not dropped.
    for (const l of keepUnsent(loop.unsent(), resolveWorkspace(opts.workspace)))
      io.ui.print(s.yellow(sanitize(l)));
    view.showStatus(false);
    const id = sanitize(loop.rt.session.id);
    io.ui.print(s.dim(`session ${id} saved · resume with: i -r ${id}`));
    screen.stop();
    signals.off();
  }
  return signals.code ?? (loop.interruptExit ? 130 : 0);
}
