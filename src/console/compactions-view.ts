// How a session's compactions read on screen (`/compactions`, `i sessions --compactions`): one line each
// in the list; for one of them the summary, then what it dropped, each dropped message collapsed to a
// line. Every message text is untrusted (the model's, a tool's): `clean` makes it inert first.
import type { CompactionReport, CompactionsReport } from "../contract/compactions.ts";
import { contentText, type Message } from "../contract/history.ts";
import { truncate } from "../terminal/width.ts";

export interface ViewStyle {
  clean(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const ROUTE: Record<string, string> = {
  model: "model summary",
  local: "local summary",
  prune: "old tool outputs pruned",
};

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function tokens(c: CompactionReport): string {
  return c.tokens_before !== undefined && c.tokens_after !== undefined
    ? ` · ${c.tokens_before} → ${c.tokens_after} tokens`
    : "";
}

const CONSOLE_FOOTER =
  "/compactions N shows one · /uncompact [N] restores the history before it when it fits";

/** One line per compaction, and per uncompaction, then how to look closer (`footer`: the console's). */
export function compactionListLines(r: CompactionsReport, s: ViewStyle, footer = CONSOLE_FOOTER): string[] {
  if (r.compactions.length === 0) return [s.dim("this session has not been compacted")];
  const lines = r.compactions.map((c) =>
    s.dim(
      `${String(c.number).padStart(3)}  ${when(c.ts)}  ${c.reason ?? "?"} · ${ROUTE[c.route ?? ""] ?? "compaction"} · ${c.messages_before} → ${c.messages_after} messages (${c.dropped.length} replaced, ${c.kept} kept)${tokens(c)}`,
    ),
  );
  for (const u of r.restores) {
    const what =
      u.action === "uncompact"
        ? `compaction ${u.compaction} undone`
        : `undo of compaction ${u.compaction}'s undoing`;
    lines.push(s.dim(`     ${when(u.ts)}  ${what}: ${u.messages_before} → ${u.messages_after} messages`));
  }
  lines.push(s.dim(footer));
  return lines;
}

/** A message as one line: who, and the start of what it said. */
function collapsed(m: Message, width: number, s: ViewStyle): string {
  const calls =
    m.role === "assistant" && m.tool_calls?.length
      ? ` [calls ${m.tool_calls.map((t) => t.name).join(", ")}]`
      : "";
  const text = s.clean(contentText(m.content).replace(/\s+/g, " ").trim());
  const head = `  ${m.role}${calls}: `;
  return s.dim(truncate(`${head}${text}`, Math.max(20, width)));
}

/** Compaction `c` whole: its figures, the summary, then each dropped message on a line of its own. */
export function compactionDetailLines(c: CompactionReport, width: number, s: ViewStyle): string[] {
  const lines = [
    s.bold(
      `compaction ${c.number} · ${when(c.ts)} · ${c.reason ?? "?"} · ${ROUTE[c.route ?? ""] ?? "compaction"}`,
    ),
    s.dim(
      `${c.messages_before} → ${c.messages_after} messages: ${c.dropped.length} replaced, ${c.kept} kept unchanged, ${c.added.length} added besides the summary${tokens(c)}`,
    ),
  ];
  if (c.summary !== undefined) {
    lines.push(s.bold("summary:"));
    for (const l of c.summary.split("\n")) lines.push(`  ${s.clean(l)}`);
  }
  if (c.dropped.length > 0) {
    lines.push(s.bold(`replaced (${c.dropped.length}; every one is still in the session's log):`));
    for (const m of c.dropped) lines.push(collapsed(m, width, s));
  }
  if (c.added.length > 0) {
    lines.push(s.bold(`added (${c.added.length}: pruned outputs, restored messages):`));
    for (const m of c.added) lines.push(collapsed(m, width, s));
  }
  lines.push(s.dim(`/uncompact ${c.number} restores the history before it, when it fits the model's window`));
  return lines;
}
