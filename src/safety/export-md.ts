// A session as markdown: the user's messages and the replies, each tool call with its (shortened)
// result and the diff an edit or write made; compaction summaries and restored messages labelled.
import type { ExportMessage, SessionExport } from "../contract/export.ts";
import { callDiff, callSummary, KIND_LABEL, resultsByCall, shortened } from "./export-doc.ts";

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fence(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function heading(m: ExportMessage): string {
  const who = m.role === "assistant" ? "Assistant" : m.kind === "message" ? "You" : KIND_LABEL[m.kind];
  return `## ${who}${m.ts ? ` · ${m.ts}` : ""}`;
}

export function toMarkdown(doc: SessionExport): string {
  const s = doc.session;
  const out: string[] = [
    `# ${s.title ?? "Session"}`,
    "",
    `- session: \`${s.id}\`${s.parent ? ` (forked from \`${s.parent}\`)` : ""}`,
    `- workspace: \`${s.workspace}\``,
    ...(s.model ? [`- model: ${s.model}${s.provider ? ` (${s.provider})` : ""}`] : []),
    `- created ${s.created}, updated ${s.updated}; exported ${doc.exported}`,
    ...(s.compactions > 0 ? [`- compacted ${s.compactions} time(s): earlier messages are summarised`] : []),
    "",
  ];
  const results = resultsByCall(doc);
  for (const m of doc.messages) {
    if (m.role === "system" || m.role === "tool") continue;
    out.push(heading(m), "");
    if (m.kind === "summary" || m.kind === "restored" || m.kind === "command" || m.kind === "added")
      out.push(fence(m.text), "");
    else if (m.text.trim() !== "") out.push(m.text, "");
    for (const c of m.tool_calls ?? []) {
      out.push(`**${c.name}** ${"`"}${callSummary(c.name, c.arguments).replace(/`/g, "'")}${"`"}`, "");
      const diff = callDiff(c.name, c.arguments);
      if (diff) out.push(fence(diff.rows.map((r) => `${r.op}${r.text}`).join("\n"), "diff"), "");
      const r = results.get(c.id);
      if (r) out.push(`${r.is_error ? "Error" : "Result"}:`, "", fence(shortened(r.text)), "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
