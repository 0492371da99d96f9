// Diagnostics as the model reads them: errors first, then warnings, one `path:line:col severity [code]:
// message` line each (1-based, path relative to the workspace), at most MAX_LINES lines in all.
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "./protocol.ts";

export const MAX_LINES = 20;

export function pathOfUri(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** The path as the model should write it back: relative when inside the workspace. */
export function shownPath(workspace: string, path: string): string {
  const rel = relative(workspace, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split("\\").join("/") : path;
}

/** Errors (1) and warnings (2); a diagnostic without a severity counts as an error, as the spec says. */
export function severityOf(d: Diagnostic): 1 | 2 | 3 | 4 {
  return (d.severity ?? 1) as 1 | 2 | 3 | 4;
}

function codeOf(d: Diagnostic): string {
  if (d.code === undefined || d.code === null || d.code === "") return "";
  const code = String(d.code);
  return d.source === "typescript" && /^\d+$/.test(code) ? `TS${code}` : code;
}

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s*\n\s*/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function diagnosticLine(shown: string, d: Diagnostic): string {
  const sev = severityOf(d) === 1 ? "error" : "warning";
  const code = codeOf(d);
  const at = `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
  const message = typeof d.message === "string" ? d.message : d.message.value;
  return `${at} ${sev}${code ? ` [${code}]` : ""}: ${oneLine(message)}`;
}

/** Errors then warnings, in the order of their position. */
export function sortedProblems(items: readonly Diagnostic[]): Diagnostic[] {
  return items
    .filter((d) => severityOf(d) <= 2)
    .sort(
      (a, b) =>
        severityOf(a) - severityOf(b) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character,
    );
}

export function counts(items: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of items) {
    const s = severityOf(d);
    if (s === 1) errors++;
    else if (s === 2) warnings++;
  }
  return { errors, warnings };
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Section headers and their lines, the lines capped at MAX_LINES in all with "... and N more". */
export function renderSections(sections: { header: string; lines: string[] }[]): string {
  const out: string[] = [];
  let budget = MAX_LINES;
  let left = 0;
  for (const s of sections) {
    if (s.lines.length === 0) continue;
    if (budget <= 0) {
      // Nothing of this section fits: its lines are counted in "and N more".
      left += s.lines.length;
      continue;
    }
    out.push(s.header);
    const shown = s.lines.slice(0, budget);
    out.push(...shown);
    budget -= shown.length;
    left += s.lines.length - shown.length;
  }
  if (left > 0) out.push(`... and ${left} more`);
  return out.join("\n");
}
