// Runs one hook command: through the shell, in the workspace, with the event as JSON on stdin, under its
// timeout. The command gets its own process group, and the whole group is killed when the timeout passes
// or the command exits (a formatter's stray background child included), so no hook leaves a process
// behind. What it prints is kept up to a bound; the rest is counted and dropped, so a hook that prints
// megabytes costs no memory.
import { type ChildProcess, spawn } from "node:child_process";
import { killTree } from "../../src/lib/kill-tree.ts";

/** Bytes of stdout and of stderr kept per hook run. */
export const HOOK_OUTPUT_MAX_BYTES = 64 * 1024;
/** After the command exits, how long its output pipes may stay open (held by a leftover child). */
const DRAIN_MS = 200;

export interface HookRun {
  /** exit code; null when a signal ended it or it never started */
  code: number | null;
  stdout: string;
  stderr: string;
  /** bytes of output beyond the bound, dropped */
  dropped: number;
  timedOut: boolean;
  /** why it could not start */
  startError?: string;
  durationMs: number;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  input: string;
  timeoutMs: number;
}

function shellArgv(command: string): [string, string[]] {
  if (process.platform === "win32") return [process.env.COMSPEC ?? "cmd.exe", ["/d", "/s", "/c", command]];
  return ["/bin/sh", ["-c", command]];
}

class Capture {
  private chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  push(chunk: Buffer): void {
    const room = HOOK_OUTPUT_MAX_BYTES - this.kept;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
    this.dropped += chunk.length - part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/**
 * The command's process group, a stray background child included (POSIX); on Windows its tree, and only
 * while the shell still runs: once it exited its children cannot be found, and its pid may be another
 * program's (src/lib/kill-tree.ts).
 */
function killAll(child: ChildProcess): void {
  const running = child.exitCode === null && child.signalCode === null;
  if (process.platform === "win32" && !running) return;
  killTree(child.pid, "SIGKILL");
}

export function runHookCommand(command: string, opts: RunOptions): Promise<HookRun> {
  const started = performance.now();
  const [prog, args] = shellArgv(command);
  const out = new Capture();
  const err = new Capture();
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    let exitCode: number | null = null;
    const child = spawn(prog, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      windowsHide: true,
    });
    const finish = (startError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      killAll(child);
      resolve({
        code: startError ? null : exitCode,
        stdout: out.text(),
        stderr: err.text(),
        dropped: out.dropped + err.dropped,
        timedOut,
        ...(startError ? { startError } : {}),
        durationMs: performance.now() - started,
      });
    };
    let drain: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killAll(child);
    }, opts.timeoutMs);
    child.stdout?.on("data", (c: Buffer) => out.push(c));
    child.stderr?.on("data", (c: Buffer) => err.push(c));
    // A hook that does not read its stdin closes the pipe early: that is no failure of the hook.
    child.stdin?.on("error", () => {});
    child.stdin?.end(opts.input);
    child.on("error", (e) => finish(`cannot start ${prog}: ${e.message}`));
    child.on("exit", (code) => {
      exitCode = code;
      // The group goes with it; output still in the pipes arrives before "close".
      killAll(child);
      drain = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on("close", () => finish());
  });
}
