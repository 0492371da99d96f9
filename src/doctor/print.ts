// How `i doctor`'s report reaches stdout: through consola, the leveled logger `i` uses, with one reporter
// of ours. Each line of the report is one message (the verdict a `success` or a `fail`), and the reporter
// writes the message as it is: no badge, tag, icon or date, because the report is read by people and by
// grep alike and its lines were made inert (and coloured, on a colour terminal) when they were rendered.
// consola's throttling is off: a report may hold the same line many times (one per failing file), and
// each must print at once, not be folded into "(repeated N times)" a second later.
import { createConsola } from "consola/core";
import { type Line, type Painted, render } from "./report.ts";

type Write = (text: string) => void;

interface LogObject {
  args: unknown[];
}

function reportLogger(write: Write) {
  const reporter = { log: (o: LogObject) => write(`${o.args.map(String).join(" ")}\n`) };
  return createConsola({ level: 3, throttle: 0, reporters: [reporter] });
}

/**
 * The report's lines, a blank line and the verdict, each rendered for `width` (undefined: no terminal,
 * every line whole) and logged in order.
 */
export function printReport(
  lines: Line[],
  verdict: Painted,
  failed: boolean,
  width: number | undefined,
  write: Write = (text) => process.stdout.write(text),
): void {
  const logger = reportLogger(write);
  for (const line of lines) logger.log(render([line], width));
  logger.log("");
  if (failed) logger.fail(render([verdict], width));
  else logger.success(render([verdict], width));
}
