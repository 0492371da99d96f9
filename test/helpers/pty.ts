// A pseudo-terminal for console tests: the real CLI runs in a tmux pane (its own server socket per test,
// so tests never share state with each other or with a user's tmux), keys go in with send-keys and the
// screen comes back with capture-pane. Waits poll the screen with generous timeouts: the machine may be
// busy, and a fixed sleep would be either too short there or wasted everywhere else.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { MAIN, tempDir } from "./cli.ts";

const run = promisify(execFile);
let counter = 0;

export interface PtyOptions {
  /** program and arguments; default: this checkout's CLI under the running bun */
  argv?: string[];
  env?: Record<string, string>;
  cwd?: string;
  cols?: number;
  rows?: number;
  /** TERM inside the pane (default xterm-256color) */
  term?: string;
}

export const WAIT_MS = 45_000;

/** What a test rig gives the console: its CLI flags, its environment and its root (HOME inside the pane). */
export interface ConsoleRig {
  flags: string[];
  env: Record<string, string>;
  root: string;
}

/** Options that run this checkout's real console for `rig`, with `args` after the rig's flags. */
export function consoleIn(
  rig: ConsoleRig,
  args: string[] = [],
  opts: Omit<PtyOptions, "argv"> = {},
): PtyOptions {
  return {
    ...opts,
    argv: [process.execPath, MAIN, ...rig.flags, ...args],
    env: { ...rig.env, PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: rig.root, ...opts.env },
  };
}

/** Runs of whitespace (line breaks from wrapping included) as one space. */
export function flat(s: string): string {
  return s.replace(/\s+/g, " ");
}

export class Pty {
  private constructor(
    readonly socket: string,
    private readonly dir: string,
  ) {}

  /** Start `argv` in a fresh detached tmux server of its own. */
  static async start(opts: PtyOptions = {}): Promise<Pty> {
    const socket = `i-pty-${process.pid}-${++counter}`;
    const dir = tempDir("i-pty-");
    const argv = opts.argv ?? [process.execPath, MAIN];
    const env = { TERM: opts.term ?? "xterm-256color", ...opts.env };
    // The pane runs a script that sets exactly this environment, whatever the tmux server inherited.
    const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const script = [
      "#!/bin/sh",
      ...Object.entries(env).map(([k, v]) => `export ${k}=${q(v)}`),
      ...(opts.cwd ? [`cd ${q(opts.cwd)}`] : []),
      // The program runs as a child that records its pid, and its exit status is recorded after it: tmux
      // does not report the status of every program (a Bun program's comes back blank).
      `sh -c 'echo $$ > "$0"; exec "$@"' ${q(join(dir, "pid"))} ${argv.map(q).join(" ")}`,
      "s=$?",
      // The terminal's modes as the program left them (raw mode shows as -icanon -echo).
      `stty -a > ${q(join(dir, "stty"))} 2>&1`,
      `echo $s > ${q(join(dir, "status"))}`,
    ].join("\n");
    const file = join(dir, "run.sh");
    writeFileSync(file, `${script}\n`, { mode: 0o755 });
    const pty = new Pty(socket, dir);
    await pty.tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(opts.cols ?? 80),
      "-y",
      String(opts.rows ?? 24),
      "-s",
      "t",
      file,
    );
    await pty.tmux("set-option", "-g", "remain-on-exit", "on");
    // Every byte the program writes, escapes included (from here on), for checks of terminal modes.
    await pty.tmux("pipe-pane", "-t", "t", "-o", `cat >> ${q(join(dir, "raw"))}`);
    await pty.tmux("set-option", "-g", "history-limit", "10000");
    return pty;
  }

  private async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run("tmux", ["-L", this.socket, ...args], { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  }

  /** Type `text` literally (no key names). */
  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-t", "t", "-l", text);
  }

  /** Press keys by tmux name: Enter, C-c, Up, … */
  async press(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", "t", ...keys);
  }

  /** What tmux knows of the pane: `#{pane_title}` (set by OSC 0/2), `#{window_bell_flag}`, … */
  async format(spec: string): Promise<string> {
    return (await this.tmux("display-message", "-p", "-t", "t", spec)).replace(/\n$/, "");
  }

  /**
   * The screen as text. `history`: the scrollback too (what scrolled off the top); `escapes`: with the
   * SGR styling tmux keeps for each cell (to check colour is on or off); `joined`: wrapped lines joined.
   */
  async screen(opts: { history?: boolean; escapes?: boolean; joined?: boolean } = {}): Promise<string> {
    const args = ["capture-pane", "-p", "-t", "t"];
    if (opts.history) args.push("-S", "-");
    if (opts.escapes) args.push("-e");
    if (opts.joined) args.push("-J");
    return this.tmux(...args);
  }

  /**
   * Poll until the screen (with scrollback) satisfies `want`: a string matches across line breaks and
   * runs of spaces (text is wrapped to the width); the last screen is in the error on timeout.
   */
  async waitFor(
    want: string | RegExp | ((screen: string) => boolean),
    opts: { timeoutMs?: number; history?: boolean; joined?: boolean } = {},
  ): Promise<string> {
    const test =
      typeof want === "string"
        ? (s: string) => flat(s).includes(flat(want))
        : want instanceof RegExp
          ? (s: string) => want.test(s)
          : want;
    const deadline = Date.now() + (opts.timeoutMs ?? WAIT_MS);
    let last = "";
    for (;;) {
      last = await this.screen({ history: opts.history ?? true, joined: opts.joined ?? false });
      if (test(last)) return last;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(want)}; the screen was:\n${last}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Paste `text` as a terminal paste does: bracketed (ESC[200~ … ESC[201~) when the program asked for it. */
  async paste(text: string): Promise<void> {
    const file = join(this.dir, "paste.txt");
    writeFileSync(file, text);
    await this.tmux("load-buffer", "-b", "p", file);
    await this.tmux("paste-buffer", "-p", "-d", "-b", "p", "-t", "t");
  }

  async resize(cols: number, rows: number): Promise<void> {
    await this.tmux("resize-window", "-t", "t", "-x", String(cols), "-y", String(rows));
  }

  /** The pane's program has exited (remain-on-exit keeps the pane for capture). */
  async exited(): Promise<boolean> {
    const out = await this.tmux("display-message", "-p", "-t", "t", "#{pane_dead}");
    return out.trim() === "1";
  }

  /** The exit status of the pane's program once it has exited. */
  async exitStatus(): Promise<number> {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(join(this.dir, "status"), "utf8").trim();
    if (!/^\d+$/.test(text)) throw new Error(`no exit status recorded for the pane's program: "${text}"`);
    return Number(text);
  }

  /** The terminal settings (`stty -a`) the program left behind, once it has exited. */
  async sttyAfterExit(): Promise<string> {
    const { readFileSync } = await import("node:fs");
    return readFileSync(join(this.dir, "stty"), "utf8");
  }

  /** What the program wrote, raw (escapes included), since shortly after it started. */
  async raw(encoding: BufferEncoding = "latin1"): Promise<string> {
    const { readFileSync } = await import("node:fs");
    try {
      return readFileSync(join(this.dir, "raw"), encoding);
    } catch {
      return "";
    }
  }

  /** The pid of the pane's program (for signal tests). */
  async pid(): Promise<number> {
    const { readFileSync } = await import("node:fs");
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const text = (() => {
        try {
          return readFileSync(join(this.dir, "pid"), "utf8").trim();
        } catch {
          return "";
        }
      })();
      if (/^\d+$/.test(text)) return Number(text);
      if (Date.now() > deadline) throw new Error("the pane's program never recorded its pid");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async waitExit(timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.exited())) {
      if (Date.now() > deadline)
        throw new Error(`the program did not exit; the screen was:\n${await this.screen()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    await this.tmux("kill-server").catch(() => {});
    const { rmSync } = await import("node:fs");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
