// The stream idle watchdog: a model request that sends nothing — no headers, no bytes, not even an SSE
// keep-alive comment — for `ms` is given up on, so a stalled server can never hang a turn. Every byte that
// arrives restarts the clock; a long but steadily streaming reply is never cut.
import type { CallSite } from "./errors.ts";
import { ProviderError } from "./types.ts";

/** The default wait, in line with codex's stream idle timeout (5 minutes). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;

export interface IdleWatch {
  /** aborted when the user's signal aborts or when the stream stays silent for the timeout */
  signal: AbortSignal;
  /** data arrived: restart the clock */
  touch(): void;
  /** the timeout (not the user) ended the request */
  readonly fired: boolean;
  stop(): void;
}

export function watchIdle(ms: number, user: AbortSignal | undefined): IdleWatch {
  const ctl = new AbortController();
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      ctl.abort(new Error("stream idle timeout"));
    }, ms);
  };
  const onUser = () => ctl.abort(user?.reason);
  if (user?.aborted) ctl.abort(user.reason);
  else user?.addEventListener("abort", onUser, { once: true });
  arm();
  return {
    signal: ctl.signal,
    touch: () => {
      if (!ctl.signal.aborted) arm();
    },
    get fired() {
      return fired;
    },
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      user?.removeEventListener("abort", onUser);
    },
  };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The error of a stalled stream: retryable (once, by the transport), naming the setting that decides it. */
export function idleError(site: CallSite, ms: number): ProviderError {
  return new ProviderError(
    "network",
    `${site.provider} model "${site.model}": no data from the server for ${seconds(ms)} (stream_idle_timeout_ms in config.json)`,
    undefined,
    { idle: true },
  );
}
