// `i sessions`: list the sessions of this workspace, most recently updated first.
import { resolveWorkspace } from "../../agent/options.ts";
import { dataDir, refuseBadDirs } from "../../config/paths.ts";
import {
  compactionDetailLines,
  compactionListLines,
  type ViewStyle,
} from "../../console/compactions-view.ts";
import { UserError } from "../../contract/errors.ts";
import { compactionsReport } from "../../session/compaction-report.ts";
import { formatHistory } from "../../session/history-file.ts";
import { allMessages } from "../../session/recover.ts";
import { Session, type SessionMeta } from "../../session/session.ts";
import { nestChildren } from "../../session/session-tree.ts";
import { inertJson, sanitize, sanitizeLine } from "../../terminal/sanitize.ts";
import { padEnd, padStart, terminalColumns, visibleWidth } from "../../terminal/width.ts";
import { defineSubcommand } from "../command.ts";
import { runSafetyArgs, SAFETY_ARGS } from "./sessions-safety.ts";

/** "2026-11-30 07:49" in local time: enough to tell sessions apart at a glance. */
function shortTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const RECOVER_NOTE =
  "messages compacted away are kept in each session's events.jsonl: `i sessions --recover ID` prints every message it ever held\n";

export function formatSessions(list: SessionMeta[]): string {
  // Titles are the user's first message and ids are directory names: shown inert, one line each.
  // A sub-agent task's session is listed under the session that ran it.
  const rows = nestChildren(list).map(({ meta: m, depth }) => [
    `${depth > 0 ? `${"  ".repeat(depth - 1)}↳ ` : ""}${sanitizeLine(m.id)}`,
    shortTime(m.updated),
    String(m.messages),
    String(m.compactions),
    depth > 0 && m.parent
      ? `[task ${sanitizeLine(m.parent.agent)}] ${sanitizeLine(m.title ?? "")}`
      : sanitizeLine(m.title ?? ""),
  ]);
  const header = ["ID", "UPDATED", "MESSAGES", "COMPACTIONS", "TITLE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleWidth(r[i] as string))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === cells.length - 1
          ? c
          : i === 2 || i === 3
            ? padStart(c, widths[i] as number)
            : padEnd(c, widths[i] as number),
      )
      .join("  ")
      .trimEnd();
  return `${[header, ...rows].map(line).join("\n")}\n`;
}

const PLAIN: ViewStyle = { clean: sanitize, dim: (s) => s, bold: (s) => s };

function printCompactions(id: string, show: string | undefined, json: boolean): number {
  const s = Session.open(dataDir(), id);
  const report = compactionsReport(s.id, s.compactionLog());
  let n: number | undefined;
  if (show !== undefined) {
    n = /^\d+$/.test(show) ? Number(show) : undefined;
    if (n === undefined || n < 1 || n > report.compactions.length)
      throw new UserError(
        `i sessions: --show takes a compaction number from 1 to ${report.compactions.length} of session ${sanitizeLine(s.id)}, not "${sanitizeLine(show)}"`,
      );
  }
  const one = n === undefined ? undefined : report.compactions[n - 1];
  if (json) {
    process.stdout.write(`${inertJson(JSON.stringify(one ?? report, null, 2))}\n`);
    return 0;
  }
  const lines = one
    ? compactionDetailLines(one, terminalColumns() ?? 100, PLAIN)
    : compactionListLines(
        report,
        PLAIN,
        `i sessions --compactions ${s.id} --show N shows one · i compact --undo [--compaction N] -r ${s.id} restores the history before it`,
      );
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

export const command = defineSubcommand(
  {
    name: "i sessions",
    description: "List sessions of this workspace",
    args: {
      workspace: { type: "string", valueHint: "dir", description: "workspace directory (default: cwd)" },
      compactions: {
        type: "string",
        valueHint: "id",
        description: "what each compaction of session ID kept, summarised and dropped (--show N: one whole)",
      },
      show: { type: "string", valueHint: "N", description: "with --compactions: compaction N in full" },
      json: {
        type: "boolean",
        description: "with --compactions: the report as JSON (schemas/session-compactions.json)",
      },
      recover: {
        type: "string",
        valueHint: "id",
        description: "print every message session ID ever held, from its events.jsonl",
      },
      ...SAFETY_ARGS,
    },
  },
  async (args) => {
    refuseBadDirs(["I_DATA_DIR"]);
    const safety = await runSafetyArgs(args);
    if (safety !== undefined) return safety;
    if ((args.show !== undefined || args.json) && args.compactions === undefined)
      throw new UserError("i sessions: --show and --json go with --compactions ID");
    if (args.compactions !== undefined)
      return printCompactions(args.compactions, args.show, Boolean(args.json));
    if (args.recover !== undefined) {
      // Any session of the data directory: recovering is about the folder, not this workspace.
      const s = Session.open(dataDir(), args.recover);
      process.stdout.write(inertJson(formatHistory(allMessages(s.dir))));
      return 0;
    }
    const workspace = resolveWorkspace(args.workspace);
    const list = Session.list(dataDir(), workspace);
    if (list.length === 0) {
      process.stdout.write(`no sessions for workspace ${sanitizeLine(workspace)}\n`);
      return 0;
    }
    process.stdout.write(formatSessions(list));
    if (list.some((m) => m.compactions > 0)) process.stdout.write(RECOVER_NOTE);
    return 0;
  },
);
