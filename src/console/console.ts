// The interactive console: logo, streamed text, tool calls, context use and compaction events. While a turn
// runs, typed lines go to the steering queue; `/compact [instructions]` compacts on demand.
import { createInterface, type Interface } from "node:readline";
import { type AgentRuntime, type SetupOptions, setupAgent } from "../agent/setup.ts";
import { CompactionError } from "../compaction/errors.ts";
import { dataDir } from "../config/paths.ts";
import { errorMessage } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import { enqueue, queuePath, removeQueue } from "./queue.ts";
import { dim, LOGO, red, renderEvent, yellow } from "./render.ts";

export interface ConsoleOptions extends Omit<SetupOptions, "emit" | "steeringQueue"> {
  firstMessage?: string;
}

const HELP = `commands: /compact [instructions] · /session · /help · /exit   (Ctrl-C cancels a running turn)`;

export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const out = process.stdout;
  const queue = queuePath(dataDir());
  const rl: Interface = createInterface({
    input: process.stdin,
    output: out,
    prompt: "› ",
    terminal: !!process.stdin.isTTY,
  });
  let midLine = false;
  let pendingAnswer: ((yes: boolean) => void) | undefined;
  const print = (s: string) => {
    if (midLine) out.write("\n");
    midLine = false;
    out.write(`${s}\n`);
  };
  const emit = (ev: AgentEvent) => {
    if (ev.type === "text_delta") {
      out.write(ev.text);
      midLine = !ev.text.endsWith("\n");
      return;
    }
    const line = renderEvent(ev);
    if (line) print(line);
  };
  const ask = (question: string) =>
    new Promise<boolean>((resolve) => {
      print(yellow(`? run: ${question}  [y/N]`));
      pendingAnswer = resolve;
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
      answer(/^y(es)?$/i.test(line.trim()));
      return;
    }
    if (running && line.trim() !== "" && !line.startsWith("/")) {
      enqueue(queue, line);
      print(dim("(queued: delivered to the model at the next safe point)"));
      return;
    }
    lines.push(line);
    wake?.();
  });
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      print(yellow("cancelling…"));
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

  out.write(`${LOGO}\n\n`);
  let rt: AgentRuntime;
  try {
    rt = await setupAgent({ ...opts, emit, ask, steeringQueue: queue });
  } catch (err) {
    rl.close();
    throw err;
  }
  print(dim(HELP));

  const nextLine = async (): Promise<string | undefined> => {
    while (lines.length === 0 && !closed) {
      if (process.stdin.isTTY) rl.prompt();
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
      if (midLine) print("");
      if (r.stop === "cancelled") print(yellow("cancelled; the session is saved"));
    } catch (err) {
      print(red(`✗ ${errorMessage(err)}`));
    } finally {
      running = undefined;
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
        print(dim(HELP));
        continue;
      }
      if (text === "/session") {
        print(dim(`session ${rt.session.id} · ${rt.agent.history.length} messages · ${rt.workspace}`));
        continue;
      }
      if (text === "/compact" || text.startsWith("/compact ")) {
        try {
          await rt.agent.compact(text.slice("/compact".length).trim() || undefined);
        } catch (err) {
          // A failed compaction was already shown by its `compaction` event; anything else is news.
          if (!(err instanceof CompactionError)) print(red(`✗ ${errorMessage(err)}`));
        }
        continue;
      }
      if (text.startsWith("/")) {
        print(yellow(`unknown command ${text.split(" ")[0]}; ${HELP}`));
        continue;
      }
      await turn(text);
    }
  } finally {
    rl.close();
    // Lines typed after the last safe point never reached the model: show them rather than drop them.
    const unsent = await rt.agent.pullSteered().catch(() => [] as string[]);
    for (const text of unsent) print(yellow(`not sent (typed after the last turn ended): ${text}`));
    await rt.close();
    removeQueue(queue);
    print(dim(`session ${rt.session.id} saved · resume with: i -r ${rt.session.id}`));
  }
  return 0;
}
