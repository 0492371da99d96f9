// The one line the console shows under an edit when a language server found problems: "2 errors in
// src/a.ts", with the other files a change broke ("· 1 error in src/b.ts"), red for errors, yellow for
// warnings only.
import type { AgentEvent } from "../contract/events.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate } from "../terminal/width.ts";

type DiagnosticsEvent = Extract<AgentEvent, { type: "diagnostics" }>;

const n = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;

export function diagnosticsLine(ev: DiagnosticsEvent, s: Style, width: number): string | undefined {
  if (ev.files.length === 0) return undefined;
  const parts = ev.files.map((f) => {
    const what = [f.errors ? n(f.errors, "error") : "", f.warnings ? n(f.warnings, "warning") : ""];
    return `${what.filter(Boolean).join(", ")} in ${sanitizeLine(f.path)}`;
  });
  const errors = ev.files.some((f) => f.errors > 0);
  const paint = errors ? s.red : s.yellow;
  return truncate(`  ${paint("⚠")} ${paint(parts.join(" · "))}`, width);
}
