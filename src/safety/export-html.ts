// A session as one self-contained HTML file: no script, no request to anywhere (a Content-Security-Policy
// that allows only the inline style says so to the browser too), every piece of text escaped (it is
// untrusted: the model's, tools', files'), light and dark by the reader's system setting.
import type { ExportMessage, SessionExport } from "../contract/export.ts";
import { callDiff, callSummary, KIND_LABEL, resultsByCall, shortened } from "./export-doc.ts";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";

const STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --dim: #59636e; --card: #f6f8fa;
  --line: #d1d9e0; --you: #ddf4ff; --add: #dafbe1; --del: #ffebe9; --warn: #fff8c5; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --dim: #9198a1; --card: #151b23; --line: #3d444d;
    --you: #0c2d4a; --add: #12361d; --del: #4a1619; --warn: #3b2e05; }
}
body { background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; margin: 0 auto;
  max-width: 60rem; padding: 1.5rem; }
h1 { overflow-wrap: anywhere; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
header p { color: var(--dim); margin: .2rem 0; }
.msg { border: 1px solid var(--line); border-radius: 8px; margin: .8rem 0; padding: .6rem .9rem; }
.msg.user { background: var(--you); }
.msg.summary, .msg.restored, .msg.command { background: var(--warn); }
.who { color: var(--dim); font-size: 13px; font-weight: 600; margin-bottom: .3rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: var(--card); border: 1px solid var(--line); border-radius: 6px; margin: .4rem 0;
  overflow-x: auto; padding: .5rem; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, monospace; }
.call { font: 13px ui-monospace, monospace; margin-top: .5rem; }
.add { background: var(--add); display: block; } .del { background: var(--del); display: block; }
.error { color: #d1242f; }
`;

function who(m: ExportMessage): string {
  const base = m.role === "assistant" ? "Assistant" : m.kind === "message" ? "You" : KIND_LABEL[m.kind];
  return `${escapeHtml(base)}${m.ts ? ` · ${escapeHtml(m.ts)}` : ""}`;
}

function message(m: ExportMessage, results: Map<string, ExportMessage>): string {
  const cls = m.role === "user" ? `user ${m.kind}` : m.kind;
  const parts = [`<section class="msg ${cls}">`, `<div class="who">${who(m)}</div>`];
  if (m.text.trim() !== "") parts.push(`<div class="text">${escapeHtml(m.text)}</div>`);
  for (const c of m.tool_calls ?? []) {
    parts.push(
      `<div class="call"><b>${escapeHtml(c.name)}</b> ${escapeHtml(callSummary(c.name, c.arguments))}</div>`,
    );
    const diff = callDiff(c.name, c.arguments);
    if (diff) {
      const rows = diff.rows.map((r) => {
        const text = escapeHtml(`${r.op}${r.text}`);
        return r.op === "+"
          ? `<span class="add">${text}</span>`
          : r.op === "-"
            ? `<span class="del">${text}</span>`
            : `${text}\n`;
      });
      parts.push(`<pre>${rows.join("")}</pre>`);
    }
    const r = results.get(c.id);
    if (r) parts.push(`<pre${r.is_error ? ' class="error"' : ""}>${escapeHtml(shortened(r.text))}</pre>`);
  }
  parts.push("</section>");
  return parts.join("\n");
}

export function toHtml(doc: SessionExport): string {
  const s = doc.session;
  const results = resultsByCall(doc);
  const body = doc.messages
    .filter((m) => m.role !== "system" && m.role !== "tool")
    .map((m) => message(m, results))
    .join("\n");
  const facts = [
    `session ${s.id}${s.parent ? ` · forked from ${s.parent}` : ""}`,
    `workspace ${s.workspace}`,
    ...(s.model ? [`model ${s.model}${s.provider ? ` (${s.provider})` : ""}`] : []),
    `created ${s.created} · updated ${s.updated} · exported ${doc.exported}`,
    ...(s.compactions > 0 ? [`compacted ${s.compactions} time(s): earlier messages are summarised`] : []),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(s.title ?? "Session")}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(s.title ?? "Session")}</h1>
${facts.map((f) => `<p>${escapeHtml(f)}</p>`).join("\n")}
</header>
<main>
${body}
</main>
</body>
</html>
`;
}
