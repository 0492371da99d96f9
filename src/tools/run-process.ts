// Runs one shell command as the leader of its own process group, so a timeout or an abort can kill
// everything it started. Output (stdout and stderr interleaved) is kept head+tail within a fixed budget;
// it is captured through a file (output-file.ts), read as it grows and once more when the shell exits.
import { HeadTailBuffer } from "../lib/truncate.ts";
import { startGroupLeader } from "../runtime/group-leader.ts";
import {
  type GroupChild,
  groupAlive,
  killGroup,
  trackGroup as track,
  untrackGroup as untrack,
} from "../runtime/process-group.ts";
import { OutputFile } from "./output-file.ts";

/** Grace between SIGTERM and SIGKILL when stopping a command's process group. */
const KILL_GRACE_MS = 1000;
/**
 * After the shell exits, how long output of processes it left in the background is still taken (while
 * any of them runs). They may run for ever; then reading stops and the result says so.
 */
const CLOSE_GRACE_MS = 300;
/** How often a running command's output is read (the live view's pace). */
const POLL_MS = 40;

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  headBytes: number;
  tailBytes: number;
  /** every chunk of output as it arrives (for a live view; the buffer still keeps head and tail) */
  onData?: (chunk: Buffer) => void;
}

export interface RunOutcome {
  output: HeadTailBuffer;
  /** exit code, null when killed by a signal */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** the shell exited but processes it left in the background still ran after a grace; reading stopped */
  outputLeftOpen: boolean;
}

export function runInProcessGroup(argv: [string, ...string[]], opts: RunOptions): Promise<RunOutcome> {
  const output = new HeadTailBuffer(opts.headBytes, opts.tailBytes);
  const outcome: RunOutcome = {
    output,
    code: null,
    signal: null,
    timedOut: false,
    aborted: false,
    outputLeftOpen: false,
  };
  if (opts.signal?.aborted) return Promise.resolve({ ...outcome, aborted: true });
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    let out: OutputFile;
    let child: GroupChild;
    try {
      out = new OutputFile();
    } catch (err) {
      reject(err);
      return;
    }
    try {
      child = startGroupLeader(
        file,
        args,
        { cwd: opts.cwd, env: opts.env, outFd: out.fd },
        {
          exit: (code, signal) => onExit(code, signal),
          error: (err) => finish(err),
        },
      );
    } catch (err) {
      out.close();
      reject(err);
      return;
    }
    track(child);
    const timers: ReturnType<typeof setTimeout>[] = [];
    let settled = false;
    const onData = (b: Buffer) => {
      output.push(b);
      opts.onData?.(b);
    };
    const read = () => out.drain(onData);
    const poll = setInterval(read, POLL_MS);
    const stop = (why: "timeout" | "abort") => {
      if (why === "timeout") outcome.timedOut = true;
      else outcome.aborted = true;
      killGroup(child, "SIGTERM");
      timers.push(setTimeout(() => killGroup(child, "SIGKILL"), KILL_GRACE_MS));
    };
    const onAbort = () => stop("abort");
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      untrack(child);
      for (const t of timers) clearTimeout(t);
      // A stopped command's group dies completely, even members that ignored SIGTERM.
      if (outcome.timedOut || outcome.aborted) killGroup(child, "SIGKILL");
      opts.signal?.removeEventListener("abort", onAbort);
      if (!err) read();
      out.close();
      if (err) reject(err);
      else resolve(outcome);
    };
    function onExit(code: number | null, signal: NodeJS.Signals | null): void {
      // The shell is done: what it left in the background was started on purpose and may outlive us, unless
      // the command is being stopped (then its whole group dies in finish).
      const stopping = outcome.timedOut || outcome.aborted;
      if (!stopping) untrack(child);
      clearTimeout(deadline);
      outcome.code = code;
      outcome.signal = signal;
      // Processes it left in the background that can still write to the output: a live member of the
      // group that has the file open (where /proc tells; elsewhere any live member). The cheap check first.
      const held = () =>
        groupAlive(child) && (child.pid === undefined || (out.heldByGroup(child.pid) ?? true));
      if (stopping || !held()) {
        finish();
        return;
      }
      // They run on: take their output a little longer, then stop reading.
      const started = Date.now();
      const wait = setInterval(() => {
        if (!held()) {
          clearInterval(wait);
          finish();
        } else if (Date.now() - started >= CLOSE_GRACE_MS) {
          clearInterval(wait);
          outcome.outputLeftOpen = true;
          finish();
        }
      }, POLL_MS);
      timers.push(wait);
    }
    const deadline = setTimeout(() => stop("timeout"), opts.timeoutMs);
    timers.push(deadline);
    opts.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
