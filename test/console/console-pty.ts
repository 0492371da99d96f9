// The one way PTY console tests start the console: a rig (mock model, config and data directories) with
// its script, the real CLI in a tmux pane for it, and a wait for the help line the console prints once
// its setup is done. `liveConsole` is a file's handle on the console of its running test, closed after
// each test; `startConsole` alone leaves closing to the caller.
import { afterEach } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { MockScriptSource } from "../fixtures/mock-server/index.ts";
import { consoleIn, Pty, type PtyOptions } from "../helpers/pty.ts";

/** Generous: tmux, the CLI and its workers share two busy cores with everything else. */
export const PTY_TEST_MS = 120_000;

/** Type a line and send it (Enter). */
export async function send(p: Pty, line: string): Promise<void> {
  await p.type(line);
  await p.press("Enter");
}

export interface ConsoleOptions {
  /** CLI flags after the rig's own (e.g. ["--approve", "ask"]) */
  args?: string[];
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  /** TERM inside the pane (default xterm-256color; "dumb" for the plain-line console) */
  term?: string;
  /** files written into the rig's workspace */
  files?: Record<string, string>;
  /** config.json keys besides the rig's model table */
  config?: Record<string, unknown>;
  /** the models the mock model server lists (GET /v1/models) */
  served?: string[];
  /** the wire format the rig's mock model speaks (default openai) */
  provider?: "openai" | "anthropic" | "responses";
  /** further files written into the rig's config directory (e.g. compact.json, mcp.json) */
  configFiles?: Record<string, string>;
  /** what the screen shows once the console is ready (default its help line; a question asked first) */
  ready?: string;
}

export async function startConsole(
  script: MockScriptSource,
  opts: ConsoleOptions = {},
): Promise<{ rig: Rig; pty: Pty }> {
  const rig = await makeRig({
    script,
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.served ? { served: opts.served } : {}),
    ...(opts.provider ? { provider: opts.provider } : {}),
  });
  for (const [name, text] of Object.entries(opts.configFiles ?? {}))
    writeFileSync(join(rig.configDir, name), text);
  let pty: Pty | undefined;
  try {
    pty = await Pty.start(
      consoleIn(rig, opts.args, {
        ...(opts.env ? { env: opts.env } : {}),
        ...(opts.term ? { term: opts.term } : {}),
        cols: opts.cols ?? 80,
        rows: opts.rows ?? 24,
      }),
    );
    await pty.waitFor(opts.ready ?? "Ctrl-C cancels");
    return { rig, pty };
  } catch (err) {
    // Nothing reached the caller yet: close what was started, or it outlives the test.
    await pty?.close();
    await rig.close();
    throw err;
  }
}

/** What a new pane on the same rig may change (size, environment, TERM): everything but the program. */
export type PaneOptions = Omit<PtyOptions, "argv">;

export interface LiveConsole {
  /** the running test's rig: set by `open`, or by the test for one it makes itself (closed the same way) */
  rig: Rig | undefined;
  /** the running test's pane */
  pty: Pty | undefined;
  /**
   * Start the console (the file's defaults, then `opts`; a console this test started before is closed
   * first); rig and pane are closed after the test.
   */
  open(script: MockScriptSource, opts?: ConsoleOptions): Promise<{ rig: Rig; pty: Pty }>;
  /** `open`'s pane */
  start(script: MockScriptSource, opts?: ConsoleOptions): Promise<Pty>;
  /**
   * A new pane on the running test's rig with these flags (`-c` after `/exit`), the previous pane closed
   * first; it does not wait for anything (a resumed console prints its own line).
   */
  reopen(args: string[], opts?: PaneOptions): Promise<Pty>;
}

/** Call once at the top of a test file: each test's console (rig and pane) is closed after it. */
export function liveConsole(defaults: ConsoleOptions = {}): LiveConsole {
  const live: LiveConsole = {
    rig: undefined,
    pty: undefined,
    async open(script, opts = {}) {
      await close();
      const env = defaults.env || opts.env ? { ...defaults.env, ...opts.env } : undefined;
      const started = await startConsole(script, { ...defaults, ...opts, ...(env ? { env } : {}) });
      live.rig = started.rig;
      live.pty = started.pty;
      return started;
    },
    start: async (script, opts) => (await live.open(script, opts)).pty,
    async reopen(args, opts = {}) {
      const rig = live.rig;
      if (!rig) throw new Error("reopen: no console was started in this test");
      await live.pty?.close();
      live.pty = await Pty.start(consoleIn(rig, args, opts));
      return live.pty;
    },
  };
  const close = async () => {
    await live.pty?.close();
    live.pty = undefined;
    await live.rig?.close();
    live.rig = undefined;
  };
  afterEach(close);
  return live;
}
