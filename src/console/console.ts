// The interactive console: the logo, then the conversation (src/console/session-loop.ts) drawn through the
// IO that suits the terminal. While a turn runs, typed lines go to the steering queue.
import type { SetupOptions } from "../agent/setup.ts";
import { dataDir } from "../config/paths.ts";
import { LineIo } from "./line-io.ts";
import { queuePath } from "./queue.ts";
import { dim, LOGO } from "./render.ts";
import { SessionLoop } from "./session-loop.ts";

export interface ConsoleOptions extends Omit<SetupOptions, "emit" | "steeringQueue" | "ask"> {
  firstMessage?: string;
}

export async function runConsole(opts: ConsoleOptions): Promise<number> {
  const queue = queuePath(dataDir());
  const interactive = !!process.stdin.isTTY;
  const io = new LineIo(interactive);
  // Without a terminal there is no one to ask: approvals that would be asked are refused at once.
  const loop = new SessionLoop(io, { ...opts, queue, canAsk: interactive });
  io.attach(loop);
  process.stdout.write(`${LOGO}\n\n`);
  try {
    await loop.open();
  } catch (err) {
    io.close();
    throw err;
  }
  io.ui.print(dim("/help lists the commands and keys · Esc or Ctrl-C cancels a running turn"));
  io.prompt();
  try {
    await loop.run();
  } finally {
    io.close();
    await loop.finish();
    const id = loop.rt.session.id;
    io.ui.print(dim(`session ${io.ui.clean(id)} saved · resume with: i -r ${io.ui.clean(id)}`));
  }
  return 0;
}
