// `i -p PROMPT`: one non-interactive run. Prints the final assistant text (or, with --json, every event as
// NDJSON). Exit 0 on a normal finish, 1 on a model or runtime error, 130 when cancelled with Ctrl-C.

import { dataDir } from "../config/paths.ts";
import { errorMessage, UserError } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import { hookLine } from "../lib/hook-line.ts";
import { retryText } from "../lib/retry-text.ts";
import { inertJson, sanitize } from "../terminal/sanitize.ts";
import { AgentSession, type SessionOptions } from "./agent-session.ts";
import { writeTrajectory } from "./print-trajectory.ts";
import { RunTotals } from "./run-totals.ts";

export interface PrintOptions extends SessionOptions {
  prompt: string;
  json: boolean;
  /** --trajectory: the ATIF file to write when the run ends (a resolved path) */
  trajectory?: string;
  /** `i`'s version, for the trajectory */
  version?: string;
}

/** Diagnostics carry model, tool and worker text: always inert on stderr. */
function writeLine(stream: NodeJS.WriteStream, line: string): void {
  stream.write(`${sanitize(line)}\n`);
}

export async function runPrintMode(opts: PrintOptions): Promise<number> {
  // A failed compaction is held back until the run goes on: when it is also why the run stops, the final
  // error already says so, and the user gets one line, not the same cause twice.
  let heldFailure: string | undefined;
  const release = () => {
    if (heldFailure !== undefined) writeLine(process.stderr, `i: ${heldFailure}`);
    heldFailure = undefined;
  };
  // The run's totals ride on the last event; `session` and `totals` are set before any event can come.
  let session: AgentSession | undefined;
  const totals = new RunTotals(() => session?.modelPrice, dataDir());
  const write = (ev: AgentEvent) => process.stdout.write(`${inertJson(JSON.stringify(ev))}\n`);
  const emit = opts.json
    ? (ev: AgentEvent) => {
        totals.see(ev);
        write(ev.type === "done" && session ? totals.done(ev, session.id) : ev);
      }
    : (ev: AgentEvent) => {
        if (ev.type !== "notice") release();
        if (ev.type === "notice" && ev.level === "warn") writeLine(process.stderr, `i: ${ev.message}`);
        else if (ev.type === "hook") writeLine(process.stderr, `i: ${hookLine(ev)}`);
        else if (ev.type === "compaction" && ev.phase === "failed")
          heldFailure = ev.error ?? "compaction failed";
        else if (ev.type === "retry")
          writeLine(
            process.stderr,
            `i: ${retryText(ev.reason, ev.attempt, ev.delay_ms)}${ev.discarded ? " (the partial reply is discarded)" : ""}`,
          );
      };
  session = new AgentSession(opts, { emit });
  await session.open();
  let interrupts = 0;
  let terminated = false;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    session?.cancel();
  };
  // SIGTERM (a job timeout, a harness) ends the run as Ctrl-C does: the session and trajectory are saved.
  const onSigterm = () => {
    if (terminated) process.exit(143);
    terminated = true;
    session?.cancel();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  try {
    // `@SERVER:URI` resources are attached before anything is sent; one that cannot be read stops the run.
    const attached = await session.attachResourceMentions(opts.prompt).catch((err: unknown) => {
      throw new UserError(`i -p: ${errorMessage(err)}; nothing was sent`);
    });
    if (!opts.json) for (const n of attached.notes) writeLine(process.stderr, `i: ${n}`);
    const result = await session.send(attached.text, attached.text === opts.prompt ? undefined : opts.prompt);
    if (result.stop === "cancelled") {
      if (!opts.json)
        writeLine(process.stderr, `i: cancelled; session ${session.id} saved (resume with -r ${session.id})`);
      return terminated ? 143 : 130;
    }
    release();
    if (result.stop === "blocked") return 1;
    // The answer goes out exactly as the model wrote it into a pipe or file, and inert onto a terminal.
    if (!opts.json) process.stdout.write(`${process.stdout.isTTY ? sanitize(result.text) : result.text}\n`);
    if (result.stop === "max_turns") return 1;
    return 0;
  } catch (err) {
    if (err instanceof UserError) throw err;
    const message = errorMessage(err);
    const kind = (err as { kind?: string }).kind ?? (err as Error).name ?? "error";
    if (opts.json) write({ type: "error", kind, message, ...totals.totals(session.id, "error") });
    if (heldFailure !== undefined && !message.includes(heldFailure)) release();
    writeLine(process.stderr, `i: ${message} (session ${session.id} saved)`);
    return 1;
  } finally {
    if (opts.trajectory) {
      const failed = await writeTrajectory(opts.trajectory, session.id, dataDir(), opts.version ?? "");
      if (failed) writeLine(process.stderr, `i: ${failed}`);
    }
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    await session.close();
  }
}
