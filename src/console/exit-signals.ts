// SIGTERM (a service manager, `kill`) and SIGHUP (the terminal closed) end the console as a person would:
// the running turn is cancelled (its command's process group stopped), the session saved and closed
// (workers stopped), the terminal given back, and the exit status is the shell's for that signal
// (143, 129). If stopping takes longer than the grace, the terminal is restored and `i` exits anyway:
// every step was checkpointed as it happened, so leaving then loses nothing that finished.
const CODES = { SIGHUP: 129, SIGTERM: 143 } as const;
export const SIGNAL_GRACE_MS = 5000;

export interface SignalExit {
  /** the exit status a signal asked for, once one arrived */
  readonly code: number | undefined;
  /** stop listening (the console is done) */
  off(): void;
}

/**
 * Call `stop(code)` on the first SIGTERM or SIGHUP; `force(code)` after the grace, or on a second signal.
 */
export function onExitSignals(stop: (code: number) => void, force: (code: number) => void): SignalExit {
  let code: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handlers = (Object.keys(CODES) as (keyof typeof CODES)[]).map((sig) => {
    const h = () => {
      if (code !== undefined) {
        force(code);
        return;
      }
      code = CODES[sig];
      process.exitCode = code;
      timer = setTimeout(() => force(code as number), SIGNAL_GRACE_MS);
      timer.unref?.();
      stop(code);
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  return {
    get code() {
      return code;
    },
    off() {
      if (timer) clearTimeout(timer);
      for (const [sig, h] of handlers) process.off(sig, h);
    },
  };
}
