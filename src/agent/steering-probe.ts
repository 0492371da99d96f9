// The console needs its steering worker: it is what delivers the lines typed while a turn runs. A worker
// that cannot start or answer is found before the session exists, so a broken one never leaves the console
// claiming a session it did not save, nor swallows the first message at its first safe point.
import { statSync } from "node:fs";
import { errorMessage, UserError } from "../contract/errors.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { WorkerHost } from "../worker/host.ts";

/** True when nothing waits in the queue, so a probing steer call cannot take (and drop) a typed line. */
function queueEmpty(queue: string): boolean {
  try {
    return statSync(queue).size === 0;
  } catch {
    return true;
  }
}

/**
 * One steer call on an empty queue: starts the worker, checks its handshake and its reply. Throws one
 * line naming the worker, what failed and how to fix it; a replacement's failure is a config error (exit 2).
 */
export async function probeSteering(host: WorkerHost, manifest: Manifest, queue: string): Promise<void> {
  if (!host.hasHook("steer") || !queueEmpty(queue)) return;
  try {
    await host.runHook("steer", { messages: [] });
  } catch (err) {
    const builtin = manifest.modules.find((m) => m.name === "steering")?.builtin !== false;
    const fix = builtin
      ? "run `i doctor` to see why; `i -p PROMPT` works without it"
      : 'fix or remove the "steering" entry of bindings.json (`i doctor` checks it); `i -p PROMPT` works without it';
    throw new UserError(
      `the console cannot start: its steering worker, which delivers what you type while a turn runs, failed (${errorMessage(err)}); ${fix}`,
      builtin ? 1 : 2,
    );
  }
}
