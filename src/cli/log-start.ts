// Turns the debug log on (loaded only when asked): consola, at the level `I_LOG_LEVEL` names (or debug for
// `--verbose`), with a reporter that appends each line to the log file and, on request, one that writes
// it to stderr. Every line is stripped of control characters first: messages carry text from workers,
// hooks and servers, and the file is read in a terminal.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError } from "../contract/errors.ts";
import { LOG_LEVELS, type LogLevel, setLogSink } from "../lib/log.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";

export const LOG_LEVEL_VAR = "I_LOG_LEVEL";

/** The level `value` names, or one line saying what it may be. */
export function parseLogLevel(value: string): LogLevel {
  const v = value.trim().toLowerCase();
  if (v in LOG_LEVELS) return v as LogLevel;
  throw new UserError(
    `${LOG_LEVEL_VAR}: "${value}" is not a level; use one of ${Object.keys(LOG_LEVELS).join(", ")} (or unset it)`,
  );
}

function line(date: Date, type: string, tag: string, args: unknown[]): string {
  const text = args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
  return `${date.toISOString()} ${type} [${tag}] ${sanitizeLine(text)}`;
}

export interface LogStart {
  level: LogLevel;
  /** the log file (appended; its directory is created private) */
  file: string;
  /** also write each line to stderr (print mode and pipes only: the console owns the terminal) */
  stderr: boolean;
}

export async function startLog(opts: LogStart): Promise<void> {
  const { createConsola } = await import("consola/core");
  mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
  const reporters = [
    {
      log: (o: { date: Date; type: string; tag: string; args: unknown[] }) => {
        // A log that cannot be written must not stop the run it describes.
        try {
          appendFileSync(opts.file, `${line(o.date, o.type, o.tag, o.args)}\n`, { mode: 0o600 });
        } catch {}
      },
    },
    ...(opts.stderr
      ? [
          {
            log: (o: { type: string; tag: string; args: unknown[] }) => {
              const text = line(new Date(), o.type, o.tag, o.args).replace(/^\S+ /, "");
              process.stderr.write(`i: ${text}\n`);
            },
          },
        ]
      : []),
  ];
  const logger = createConsola({ level: LOG_LEVELS[opts.level], reporters });
  const tagged = new Map<string, ReturnType<typeof logger.withTag>>();
  setLogSink(opts.level, (level, tag, message) => {
    const l = tagged.get(tag) ?? logger.withTag(tag);
    tagged.set(tag, l);
    l[level](message);
  });
}

/** Whether `argv` (the root command's) has --verbose before any `--`. */
function verboseIn(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--verbose");
}

/** Whether main() must start the log: the variable is set, or the root command has --verbose. */
export function logWanted(argv: readonly string[], root: boolean, env = process.env): boolean {
  return env[LOG_LEVEL_VAR] !== undefined || (root && verboseIn(argv));
}

/**
 * The log as the command line and environment ask: `--verbose` is debug, to the file and (in print mode or
 * when stderr is not a terminal) to stderr; `I_LOG_LEVEL` alone writes the file. `I_LOG_FILE` moves it.
 */
export async function startLogFromCli(
  argv: readonly string[],
  root: boolean,
  env = process.env,
): Promise<void> {
  const verbose = root && verboseIn(argv);
  const named = env[LOG_LEVEL_VAR];
  const level = verbose ? "debug" : parseLogLevel(named ?? "");
  const { configDir } = await import("../config/paths.ts");
  const file = env.I_LOG_FILE ? resolve(env.I_LOG_FILE) : join(configDir(env), "logs", "i.log");
  const print = argv.includes("-p") || argv.includes("--print");
  await startLog({ level, file, stderr: verbose && (print || !process.stderr.isTTY) });
}
