// The interactive console: logo, rendered replies, tool calls, live activity and a status line, drawn
// through one Screen (src/console/ui/screen.ts). While a turn runs, typed lines go to the steering queue;
// `/compact [instructions]` compacts on demand.
import { createInterface, type Interface } from "node:readline";
import type { AgentRuntime, SetupOptions } from "../agent/setup.ts";
import { CompactionError } from "../compaction/errors.ts";
import { dataDir } from "../config/paths.ts";
import { errorMessage } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import { sanitize } from "../terminal/sanitize.ts";
import { detectCaps, makeStyle } from "../terminal/style.ts";
import { enqueue, queuePath, removeQueue } from "./queue.ts";
import { LOGO } from "./render.ts";
import { ReadlineInput, readlineSink } from "./ui/readline-input.ts";
import { processTerminal, Screen } from "./ui/screen.ts";
import { ConsoleView, ORDER } from "./view.ts";

export interface ConsoleOptions extends Omit<SetupOptions, "emit" | "steeringQueue"> {
  firstMessage?: string;
}

const HELP = `/compact [instructions] · /session · /help · /exit · Ctrl-C cancels a running turn`;
const PROMPT = "› ";

export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const out = process.stdout;
  const queue = queuePath(dataDir());
  const caps = detectCaps(out);
  const s = makeStyle(caps);
  const screen = new Screen(processTerminal(out), caps);
  // With a live region the Screen draws the input line; readline only edits it.
  const live = caps.cursor && !!process.stdin.isTTY;
  const rl: Interface = createInterface({
    input: process.stdin,
    output: live ? readlineSink() : out,
    prompt: PROMPT,
    terminal: live,
  });
  const input = new ReadlineInput(rl, PROMPT);
  if (live) {
    screen.mount("input", input, ORDER.input);
    // readline has handled the key by the time this listener runs (it subscribed first).
    process.stdin.on("keypress", () => screen.invalidate());
  }
  const view = new ConsoleView(screen, s, {
    model: opts.model ?? "",
    provider: opts.provider ?? "",
    tokensIn: 0,
    tokensOut: 0,
  });
  const print = (...lines: string[]) => view.print(...lines);
  let pendingAnswer: ((yes: boolean) => void) | undefined;
  const emit = (ev: AgentEvent) => view.onEvent(ev);
  const ask = (question: string) =>
    new Promise<boolean>((resolve) => {
      // The whole command, made inert: what is approved is exactly what is shown.
      const lines = sanitize(question).split("\n");
      view.approval(true);
      print(s.yellow("? allow bash to run:"), ...lines.map((l) => `  ${s.yellow("│")} ${l}`));
      if (live) input.prompt = "allow? [y/N] › ";
      else print(s.yellow("allow? [y/N]"));
      pendingAnswer = resolve;
      screen.flush();
    });

  // Listen from the start: piped input may arrive (and end) while the workers are still starting.
  let running: AbortController | undefined;
  let closed = false;
  const lines: string[] = [];
  let wake: (() => void) | undefined;

  rl.on("line", (line) => {
    if (pendingAnswer) {
      const answer = pendingAnswer;
      pendingAnswer = undefined;
      input.prompt = PROMPT;
      const yes = /^y(es)?$/i.test(line.trim());
      print(s.dim(yes ? "  approved" : "  declined"));
      view.approval(false);
      answer(yes);
      return;
    }
    if (live && line.trim() !== "") print(`${s.dim(PROMPT)}${sanitize(line)}`);
    if (running && line.trim() !== "" && !line.startsWith("/")) {
      enqueue(queue, line);
      print(s.dim("(queued: delivered to the model at the next safe point)"));
      return;
    }
    lines.push(line);
    wake?.();
  });
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      print(s.yellow("cancelling…"));
    } else {
      closed = true;
      wake?.();
    }
  });
  rl.on("close", () => {
    closed = true;
    // Input ended: refuse a pending approval rather than wait forever; let a running turn finish.
    pendingAnswer?.(false);
    pendingAnswer = undefined;
    wake?.();
  });

  print(...LOGO.split("\n").map((l, i) => (i === 1 ? s.bold(l) : s.dim(l))), "");
  screen.flush();
  let rt: AgentRuntime;
  try {
    // The input line is on screen before the engine loads: typing starts at once, and what is entered
    // meanwhile waits in `lines` until setup is done.
    const { setupAgent } = await import("../agent/setup.ts");
    rt = await setupAgent({ ...opts, emit, ask, steeringQueue: queue });
  } catch (err) {
    rl.close();
    // The error is printed below by the caller: no input line is left dangling above it.
    screen.unmount("input");
    screen.stop();
    throw err;
  }
  Object.assign(view.status.state, {
    model: rt.model,
    provider: rt.provider,
    ...(rt.price ? { price: rt.price } : {}),
    ...(rt.session.meta.title ? { title: rt.session.meta.title } : {}),
  });
  view.countUsage(rt.agent.history);
  view.showStatus();
  print(s.dim(HELP));
  screen.flush();

  const nextLine = async (): Promise<string | undefined> => {
    while (lines.length === 0 && !closed) {
      if (process.stdin.isTTY) rl.prompt();
      screen.flush();
      await new Promise<void>((r) => {
        wake = r;
      });
      wake = undefined;
    }
    return lines.shift();
  };

  const turn = async (text: string) => {
    running = new AbortController();
    try {
      const r = await rt.agent.send(text, running.signal);
      view.turnEnded();
      if (r.stop === "cancelled") print(s.yellow("cancelled; the session is saved"));
    } catch (err) {
      view.say(s.red, `✗ ${errorMessage(err)}`);
      view.turnEnded();
    } finally {
      running = undefined;
      if (rt.session.meta.title) view.status.state.title = rt.session.meta.title;
    }
  };

  try {
    if (opts.firstMessage) await turn(opts.firstMessage);
    for (;;) {
      const line = await nextLine();
      if (line === undefined) break;
      const text = line.trim();
      if (text === "") continue;
      if (text === "/exit" || text === "/quit") break;
      if (text === "/help") {
        print(s.dim(HELP));
        continue;
      }
      if (text === "/session") {
        print(
          s.dim(sanitize(`session ${rt.session.id} · ${rt.agent.history.length} messages · ${rt.workspace}`)),
        );
        continue;
      }
      if (text === "/compact" || text.startsWith("/compact ")) {
        try {
          await rt.agent.compact(text.slice("/compact".length).trim() || undefined);
        } catch (err) {
          // A failed compaction was already shown by its `compaction` event; anything else is news.
          if (!(err instanceof CompactionError)) view.say(s.red, `✗ ${errorMessage(err)}`);
        }
        view.turnEnded();
        continue;
      }
      if (text.startsWith("/")) {
        print(s.yellow(`unknown command ${sanitize(text.split(" ")[0] ?? "")}; ${HELP}`));
        continue;
      }
      await turn(text);
    }
  } finally {
    rl.close();
    // Lines typed after the last safe point never reached the model: show them rather than drop them.
    const unsent = await rt.agent.pullSteered().catch(() => [] as string[]);
    for (const text of unsent) view.say(s.yellow, `not sent (typed after the last turn ended): ${text}`);
    await rt.close();
    removeQueue(queue);
    screen.unmount("input");
    view.showStatus(false);
    print(s.dim(`session ${sanitize(rt.session.id)} saved · resume with: i -r ${sanitize(rt.session.id)}`));
    screen.stop();
  }
  return 0;
}
