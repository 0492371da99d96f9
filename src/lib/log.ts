// The debug log's switch and its one call: off unless `I_LOG_LEVEL` or `--verbose` asked for it
// (src/lib/log-start.ts turns it on, with consola behind it). While off, a call is one comparison and
// consola is never loaded, so `i --version`, the start and every turn pay nothing for it. Call sites that
// must build a message or take a time first ask `logOn()`, so a session without the log builds nothing.

/** consola's numeric levels for the ones `i` uses. */
export const LOG_LEVELS = { error: 0, warn: 1, info: 3, debug: 4 } as const;
export type LogLevel = keyof typeof LOG_LEVELS;

type Sink = (level: LogLevel, tag: string, message: string) => void;

let threshold = -1;
let sink: Sink | undefined;

/** Whether a `level` line would be written (the log is on at that level or a more detailed one). */
export function logOn(level: LogLevel = "debug"): boolean {
  return threshold >= LOG_LEVELS[level];
}

/** One line: `tag` is the part of `i` it is about (worker, hook, retry, compaction). */
export function log(level: LogLevel, tag: string, message: string): void {
  if (threshold < LOG_LEVELS[level] || !sink) return;
  sink(level, tag, message);
}

/** Called once by log-start.ts with the logger it made. */
export function setLogSink(level: LogLevel, s: Sink): void {
  threshold = LOG_LEVELS[level];
  sink = s;
}
