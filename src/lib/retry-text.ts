// How a retry is said, the same in the console and print mode: the provider's reason without its final
// full stop (it is followed by "; retry…"), and the wait in the unit that reads naturally ("now" when
// there is none, seconds from one second up).

/** "rate limited (429); retry 2 in 1.5 s", "connection reset; retry 1 now". */
export function retryText(reason: string, attempt: number, delayMs: number): string {
  const why = reason.trim().replace(/[.!;,:\s]+$/, "");
  return `${why}; retry ${attempt} ${retryWait(delayMs)}`;
}

/** "now", "in 250 ms", "in 1.5 s", "in 12 s". */
export function retryWait(delayMs: number): string {
  const ms = Math.max(0, Math.round(delayMs));
  if (ms < 50) return "now";
  if (ms < 1000) return `in ${ms} ms`;
  const s = ms / 1000;
  return `in ${s < 10 ? s.toFixed(1).replace(/\.0$/, "") : Math.round(s)} s`;
}
