// The one way PTY console tests start the console: a rig (mock model, config and data directories) with
// its script, the real CLI in a tmux pane for it, and a wait for the help line the console prints once
// its setup is done. The caller owns both and closes them after the test.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { consoleIn, Pty } from "../helpers/pty.ts";

export interface ConsoleOptions {
  /** CLI flags after the rig's own (e.g. ["--approve", "ask"]) */
  args?: string[];
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  /** files written into the rig's workspace */
  files?: Record<string, string>;
  /** config.json keys besides the rig's model table */
  config?: Record<string, unknown>;
  /** the models the mock model server lists (GET /v1/models) */
  served?: string[];
  /** the wire format the rig's mock model speaks (default openai) */
  provider?: "openai" | "anthropic" | "responses";
  /** further files written into the rig's config directory (e.g. compact.json) */
  configFiles?: Record<string, string>;
}

export async function startConsole(
  script: MockStep[],
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
        cols: opts.cols ?? 80,
        rows: opts.rows ?? 24,
      }),
    );
    await pty.waitFor("Ctrl-C cancels");
    return { rig, pty };
  } catch (err) {
    // Nothing reached the caller yet: close what was started, or it outlives the test.
    await pty?.close();
    await rig.close();
    throw err;
  }
}
