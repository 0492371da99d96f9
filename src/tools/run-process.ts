// Runs one shell command as the leader of its own process group, so a timeout or an abort can kill
// everything it started. Output (stdout and stderr interleaved) is kept head+tail within a fixed budget.
import { spawn } from "node:child_process";
import { HeadTailBuffer } from "../contract/lib/truncate.ts";
import { killGroup, trackGroup as track, untrackGroup as untrack } from "../runtime/process-group.ts";

/** Grace between SIGTERM and SIGKILL when stopping a command's process group. */
const KILL_GRACE_MS = 1000;
/**
 * After the shell exits, how long to wait for its output pipes to close. Processes it left in the
 * background may hold them open for ever; then we stop reading instead of waiting for them.
 */
const CLOSE_GRACE_MS = 300;

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
  /** the shell exited but background processes kept its output open; reading stopped */
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
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      // Own session and process group: killable as a whole, and no controlling terminal to prompt on.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    track(child);
    const timers: ReturnType<typeof setTimeout>[] = [];
    let settled = false;
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
      untrack(child);
      for (const t of timers) clearTimeout(t);
      // A stopped command's group dies completely, even members that ignored SIGTERM.
      if (outcome.timedOut || outcome.aborted) killGroup(child, "SIGKILL");
      opts.signal?.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve(outcome);
    };
    const onData = (b: Buffer) => {
      output.push(b);
      opts.onData?.(b);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("error", (err) => finish(err));
    child.on("exit", (code, signal) => {
      // The shell is done: what it left in the background was started on purpose and may outlive us, unless
      // the command is being stopped (then its whole group dies in finish).
      if (!outcome.timedOut && !outcome.aborted) untrack(child);
      clearTimeout(deadline);
      outcome.code = code;
      outcome.signal = signal;
      timers.push(
        setTimeout(() => {
          outcome.outputLeftOpen = true;
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, CLOSE_GRACE_MS),
      );
    });
    child.on("close", () => finish());
    const deadline = setTimeout(() => stop("timeout"), opts.timeoutMs);
    timers.push(deadline);
    opts.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
