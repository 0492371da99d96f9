// A session's compactions as the report `/compactions` and `i sessions --compactions` show: built from
// the log (compaction-history.ts), in the contract's shape, so the console, the CLI and `--json` agree.
import type { CompactionReport, CompactionsReport } from "../contract/compactions.ts";
import { contentText } from "../contract/history.ts";
import { type CompactionLog, compactionParts, type LoggedCompaction } from "./compaction-history.ts";

export function compactionReport(c: LoggedCompaction): CompactionReport {
  const parts = compactionParts(c);
  const { reason, route, before_tokens, after_tokens } = c.record;
  return {
    number: c.number,
    ts: c.ts,
    ...(reason ? { reason } : {}),
    ...(route ? { route } : {}),
    messages_before: c.before.length,
    messages_after: c.after.length,
    kept: parts.kept,
    ...(before_tokens !== undefined ? { tokens_before: before_tokens } : {}),
    ...(after_tokens !== undefined ? { tokens_after: after_tokens } : {}),
    ...(parts.summary ? { summary: contentText(parts.summary.content) } : {}),
    dropped: parts.dropped,
    added: parts.summary ? parts.added.filter((m) => m !== parts.summary) : parts.added,
  };
}

export function compactionsReport(sessionId: string, log: CompactionLog): CompactionsReport {
  return {
    session: sessionId,
    compactions: log.compactions.map(compactionReport),
    restores: log.marks.flatMap((m) =>
      m.kind === "restore"
        ? [
            {
              ts: m.ts,
              action: m.action,
              compaction: m.compaction,
              messages_before: m.before.length,
              messages_after: m.after.length,
            },
          ]
        : [],
    ),
  };
}
