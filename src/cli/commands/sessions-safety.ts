// `i sessions --rewind ID --to N [--code|--conversation] [--yes]` and
// `i sessions --export ID [--format md|html|json|atif] [--out FILE]`.
import { resolve } from "node:path";
import type { ArgsDef } from "citty";
import pkg from "../../../package.json" with { type: "json" };
import { configDir, dataDir, refuseBadDirs } from "../../config/paths.ts";
import { UserError } from "../../contract/errors.ts";
import { exportCli, parseExportFormat, rewindCli } from "../../safety/cli-actions.ts";
import { sanitize, sanitizeLine } from "../../terminal/sanitize.ts";

export const SAFETY_ARGS = {
  rewind: {
    type: "string",
    valueHint: "id",
    description: "rewind session ID to before the user's message --to N (code and conversation)",
  },
  to: { type: "string", valueHint: "n", description: "with --rewind: the user message (1 is the first)" },
  code: { type: "boolean", description: "with --rewind: the files only" },
  conversation: { type: "boolean", description: "with --rewind: the conversation only" },
  yes: { type: "boolean", description: "with --rewind: overwrite files changed since the checkpoint" },
  export: {
    type: "string",
    valueHint: "id",
    description: "write session ID as markdown, HTML, JSON or an ATIF trajectory",
  },
  format: { type: "string", valueHint: "md|html|json|atif", description: "with --export (default md)" },
  out: { type: "string", valueHint: "file", description: "with --export: a new file (default: stdout)" },
} satisfies ArgsDef;

interface SafetyArgs {
  rewind?: string;
  to?: string;
  code?: boolean;
  conversation?: boolean;
  yes?: boolean;
  export?: string;
  format?: string;
  out?: string;
}

/** The exit code when a safety flag was given; undefined otherwise (the listing runs). */
export async function runSafetyArgs(args: SafetyArgs): Promise<number | undefined> {
  if (args.rewind === undefined && args.export === undefined) {
    if (args.to !== undefined || args.code || args.conversation)
      throw new UserError("i sessions: --to, --code and --conversation go with --rewind ID");
    if (args.format !== undefined || args.out !== undefined)
      throw new UserError("i sessions: --format and --out go with --export ID");
    return undefined;
  }
  refuseBadDirs(["I_DATA_DIR"]);
  if (args.rewind !== undefined) {
    if (args.to === undefined)
      throw new UserError(
        "i sessions --rewind: give --to N, the user message to go back to before (1 is the first)",
      );
    if (args.code && args.conversation)
      throw new UserError(
        "i sessions --rewind: --code and --conversation together are the default; give one, or neither",
      );
    const mode = args.code ? "code" : args.conversation ? "conversation" : "both";
    const r = await rewindCli({
      dataDir: dataDir(),
      configDir: configDir(),
      id: args.rewind,
      to: args.to,
      mode,
      yes: !!args.yes,
    });
    for (const l of r.lines) process.stdout.write(`${sanitizeLine(l)}\n`);
    return r.code;
  }
  const format = parseExportFormat(args.format);
  const out = args.out === undefined ? undefined : resolve(args.out);
  const text = exportCli(dataDir(), args.export as string, format, out, pkg.version);
  if (text !== undefined) process.stdout.write(process.stdout.isTTY ? sanitize(text) : text);
  else process.stdout.write(`exported to ${sanitizeLine(out ?? "")}\n`);
  return 0;
}
