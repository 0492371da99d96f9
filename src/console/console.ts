// The interactive console: the logo, then the conversation (src/console/session-loop.ts) drawn through one
// Screen (src/console/ui/screen.ts). With a live region the input is the prompt editor (raw keys); without
// one (a pipe, TERM=dumb) it is plain lines. While a turn runs, typed lines go to the steering queue.

import { readKeybindings, type SessionOptions } from "../agent/agent-session.ts";
import { sanitize } from "../terminal/sanitize.ts";
import { detectCaps, makeStyle } from "../terminal/style.ts";
import { onExitSignals } from "./exit-signals.ts";
import { KeyMap } from "./input/keymap.ts";
import { keepUnsent } from "./keep-unsent.ts";
import { useKeyMap } from "./keys-command.ts";
import { LineInput } from "./line-input.ts";
import { LiveInput } from "./live-input.ts";
import { logoLines } from "./render.ts";
import { SessionLoop } from "./session-loop.ts";
import { signalSettings, TerminalSignals } from "./terminal-signals.ts";
import { applyConfiguredTheme } from "./theme.ts";
import { askProjectTrust } from "./trust-question.ts";
import { processTerminal } from "./ui/process-terminal.ts";
import { Screen } from "./ui/screen.ts";
import { ConsoleView } from "./view.ts";
import { ViewIo } from "./view-io.ts";

export interface ConsoleOptions extends SessionOptions {
  firstMessage?: string;
  /** `i -r` without an id: the session is chosen in a picker first (of every workspace: all) */
  pickSession?: { all: boolean };
}

export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const out = process.stdout;
  // A bad keybindings.json is one line and exit 2, before anything is drawn or the terminal is raw.
  const keymap = new KeyMap(readKeybindings());
  useKeyMap(keymap);
  const caps = detectCaps(out);
  const s = makeStyle(caps);
  const interactiveIn = !!process.stdin.isTTY;
  if (interactiveIn) await applyConfiguredTheme(s, process.stdin, (t) => out.write(t));
  const screen = new Screen(processTerminal(out), caps);
  const interactive = !!process.stdin.isTTY;
  const live = caps.cursor && interactive;
  const view = new ConsoleView(screen, s, {
    model: opts.model ?? "",
    provider: opts.provider ?? "",
    tokensIn: 0,
    tokensOut: 0,
  });
  // Title and notifications only where a person watches a terminal, and as config.json says.
  const signals = new TerminalSignals((t) => out.write(t));
  const io = new ViewIo(view, screen, s, live || !interactive, signals);
  const { firstMessage, pickSession, ...sessionOptions } = opts;
  if (pickSession) {
    const { pickAtStart, sessionsToPick } = await import("./start-picker.ts");
    const list = sessionsToPick(pickSession.all, opts.workspace);
    const id = await pickAtStart(screen, s, list, pickSession.all);
    if (id === undefined) {
      screen.stop();
      process.stdout.write(`${s.dim("no session chosen")}\n`);
      return 0;
    }
    sessionOptions.resume = id;
  }
  const loop = new SessionLoop(
    io,
    sessionOptions,
    (handlers, session) =>
      live
        ? new LiveInput(
            screen,
            s,
            handlers,
            { dataDir: session.dataDir, workspace: session.workspace },
            keymap,
          )
        : new LineInput(io.ui, interactive, handlers),
    {
      ...(firstMessage ? { firstMessage } : {}),
      // Without a terminal there is no one to ask: approvals that would be asked are refused at once.
      canAsk: interactive,
      forceExit: () => {
        screen.stop();
        process.exit(130);
      },
    },
  );
  /** The terminal as it was (raw mode off, bracketed paste off, cursor shown); never throws (a hung-up tty). */
  const restore = () => {
    for (const f of [() => loop.input.stop(), () => screen.stop()])
      try {
        f();
      } catch {}
  };
  const exitSignals = onExitSignals(
    () => loop.halt(),
    (code) => {
      restore();
      process.exit(code);
    },
  );
  /** Lines typed and never sent are shown and kept in the input history. */
  const keepTyped = () => {
    for (const l of keepUnsent(loop.unsent(), loop.session.workspace, loop.session.dataDir))
      io.ui.print(s.yellow(sanitize(l)));
  };
  // Shown with the first thing the console says: a console that cannot start (`i -r nope`) prints no logo.
  io.preface([...logoLines(io.ui.width()).map((l, i) => (i === 1 ? s.bold(l) : s.dim(l))), ""]);
  // A project's own hooks, agents and MCP servers are asked about first, in one key (only on a terminal).
  if (interactiveIn) await askProjectTrust(loop.session, io.ui, process.stdin, () => screen.flush());
  // The input is live before the engine loads: typing starts at once, and what is entered meanwhile waits.
  loop.input.start();
  screen.flush();
  try {
    await loop.open();
  } catch (err) {
    exitSignals.off();
    loop.input.stop();
    keepTyped();
    screen.stop();
    throw err;
  }
  if (live) signals.start(signalSettings(loop.session.consoleSettings(), process.env));
  view.countUsage(loop.session.history, loop.session.sessionUsage);
  view.showReasoning = loop.session.showReasoning;
  view.showStatus();
  const tips = ["/help lists the commands and keys", "Esc or Ctrl-C cancels a running turn"];
  const oneLine = tips.join(" · ");
  io.ui.print(...(oneLine.length <= io.ui.width() ? [oneLine] : tips).map((t) => s.dim(t)));
  loop.input.idle();
  screen.flush();
  try {
    if (exitSignals.code === undefined) await loop.run();
  } finally {
    loop.input.stop();
    await loop.finish();
    // Lines typed but never sent (a signal ended the console first) are kept, not dropped.
    keepTyped();
    view.showStatus(false);
    const id = sanitize(loop.session.id);
    io.ui.print(s.dim(`session ${id} saved · resume with: i -r ${id}`));
    screen.stop();
    signals.stop();
    exitSignals.off();
  }
  return exitSignals.code ?? (loop.interruptExit ? 130 : 0);
}
