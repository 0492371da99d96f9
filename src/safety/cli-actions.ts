// The safety net without a console: `i sessions --rewind ID --to N [--code|--conversation] [--yes]`,
// `i sessions --export ID --format md|html|json [--out FILE]`, and the fork behind `i -r ID --fork`.
import { UserError } from "../contract/errors.ts";
import { loadCheckpointsPolicy } from "../lib/checkpoints-file.ts";
import { lockSession } from "../session/lock.ts";
import { Session } from "../session/session.ts";
import { Checkpointer } from "./checkpointer.ts";
import { EXPORT_FORMATS, type ExportFormat, renderExport, writeNewFile } from "./export.ts";
import { sessionTrajectory, trajectoryText } from "./export-atif.ts";
import { forkSession } from "./fork.ts";
import { type RewindMode, rewindTo } from "./rewind.ts";
import { readTimeline, turnRows } from "./timeline.ts";

export interface RewindCliOptions {
  dataDir: string;
  configDir: string;
  id: string;
  /** 1-based: before the user's Nth message */
  to: string;
  mode: RewindMode;
  /** overwrite files changed by hand without asking */
  yes: boolean;
}

/** Lines to print and the exit code (1: refused because files changed by hand, or a file not restored). */
export async function rewindCli(o: RewindCliOptions): Promise<{ lines: string[]; code: number }> {
  const policy = loadCheckpointsPolicy(o.configDir);
  const session = Session.open(o.dataDir, o.id);
  const unlock = lockSession(session.dir, session.id);
  try {
    const history = session.history();
    const rows = turnRows(history, readTimeline(session.dir));
    const n = Number(o.to);
    const row = Number.isInteger(n) && n >= 1 ? rows[n - 1] : undefined;
    if (!row)
      throw new UserError(
        `--to: "${o.to}" is out of range; session ${session.id} has ${rows.length} message(s) of yours, so give 1 to ${rows.length}`,
      );
    let refused: string[] = [];
    const checkpoints = new Checkpointer({
      session,
      workspace: session.meta.workspace,
      policy,
      skip: [o.dataDir],
      warn: () => {},
    });
    const out = await rewindTo(
      {
        session,
        checkpoints,
        workspace: session.meta.workspace,
        history,
        confirm: async (paths) => {
          refused = paths;
          return o.yes;
        },
      },
      row.index,
      o.mode,
      "rewind",
    );
    session.flush();
    if (!out.done && refused.length > 0 && !o.yes)
      return {
        lines: [
          `changed since the checkpoint (by hand or by another program): ${refused.join(", ")}; nothing was changed — add --yes to overwrite them`,
        ],
        code: 1,
      };
    return { lines: out.lines, code: out.done && !out.incomplete ? 0 : 1 };
  } finally {
    unlock();
  }
}

export function parseExportFormat(v: string | undefined): ExportFormat | "atif" {
  const f = v ?? "md";
  if (f !== "atif" && !(EXPORT_FORMATS as readonly string[]).includes(f))
    throw new UserError(`--format: "${f}" is not a format; give md, html, json or atif`);
  return f as ExportFormat | "atif";
}

/** The export's text, written to `out` (a new file) or returned for stdout. */
export function exportCli(
  dataDir: string,
  id: string,
  format: ExportFormat | "atif",
  out: string | undefined,
  /** `i`'s version: an ATIF trajectory names it */
  version = "",
): string | undefined {
  const session = Session.open(dataDir, id);
  // ATIF: every message the session ever held and its tasks' sessions, not only the current history.
  const text =
    format === "atif"
      ? trajectoryText(sessionTrajectory(session.id, { dataDir, version }))
      : renderExport(session, session.history(), format);
  if (out === undefined) return text;
  writeNewFile(out, text);
  return undefined;
}

/** `i -r ID --fork`: a new session with ID's whole history; its id is what the run resumes. */
export function forkForResume(dataDir: string, id: string): string {
  const source = Session.open(dataDir, id);
  const history = source.history();
  return forkSession(dataDir, source, history, history.length).id;
}
