// How tool calls look: one line per call (tool name + its key argument, never raw JSON), a short preview
// of the result cut to the width, a coloured diff with line numbers for edit/write, exit code and duration
// for bash. Everything from the model or the tool is sanitised here, before any styling.
import type { AgentEvent, DiffLine } from "../contract/events.ts";
import { sanitize, sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate, visibleWidth } from "../terminal/width.ts";
import { formatElapsed } from "./ui/components.ts";

type ToolResultEvent = Extract<AgentEvent, { type: "tool_result" }>;
type ToolDiffEvent = Extract<AgentEvent, { type: "tool_diff" }>;

/** The argument that says what a call does, per tool; unknown tools: the first of these present. */
const KEY_ARGS: Record<string, string[]> = {
  bash: ["command"],
  read: ["path"],
  write: ["path"],
  edit: ["path"],
};
const GENERIC_KEYS = ["command", "path", "file", "pattern", "query", "url", "name"];

export const PREVIEW_LINES = 4;
export const DIFF_LINES = 30;

function parseArgs(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The call's key argument as display text (sanitised, may span lines), and the other arguments briefly. */
export function keyArgument(name: string, raw: string): { key: string; rest: string } {
  const args = parseArgs(raw);
  if (!args) return { key: sanitizeLine(raw.trim()), rest: "" };
  // A patch is named by the files it touches; its diffs follow.
  if (name === "apply_patch" && typeof args.input === "string") {
    const files = [...args.input.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) =>
      m[1]?.trim(),
    );
    return { key: sanitizeLine(files.join(", ")), rest: "" };
  }
  const keys = KEY_ARGS[name] ?? GENERIC_KEYS;
  const k =
    keys.find((x) => typeof args[x] === "string") ??
    Object.keys(args).find((x) => typeof args[x] === "string");
  const key = k ? sanitize(String(args[k])) : "";
  const others = Object.entries(args)
    .filter(
      ([x]) =>
        x !== k &&
        !(name === "edit" || name === "write" ? ["old_text", "new_text", "content", "edits"] : []).includes(
          x,
        ),
    )
    .map(([x, v]) => `${x}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return { key, rest: sanitizeLine(others.join(" ")) };
}

export function toolCallLines(name: string, raw: string, s: Style, width: number): string[] {
  const { key, rest } = keyArgument(name, raw);
  const [first = "", ...more] = key.split("\n");
  let line = `${s.cyan("⏺")} ${s.bold(sanitizeLine(name))} ${first}`;
  if (more.length > 0) line += s.dim(` … +${more.length} line${more.length === 1 ? "" : "s"}`);
  if (rest) line += ` ${s.dim(rest)}`;
  const out = [truncate(line, width)];
  // A multi-line command is shown whole (up to a bound): what runs must be visible, not just its first line.
  if (name === "bash" && more.length > 0) {
    const shown = more.slice(0, 8);
    for (const l of shown) out.push(truncate(`  ${s.dim("│")} ${l}`, width));
    if (more.length > shown.length) out.push(s.dim(`  │ … +${more.length - shown.length} lines`));
  }
  return out;
}

/** The lines of `text` to preview: sanitised, the trailing newlines dropped. */
const previewLines = (text: string): string[] => sanitize(text).replace(/\n+$/, "").split("\n");
const indented = (lines: string[], width: number, paint: (t: string) => string): string[] =>
  lines.map((l) => truncate(`    ${paint(l)}`, width));

/** The first `n` lines of `text` (sanitised, cut to width) and a "… +N lines" note for the rest. */
export function preview(
  text: string,
  n: number,
  width: number,
  paint: (t: string) => string,
  s: Style,
): string[] {
  const lines = previewLines(text);
  const shown = indented(lines.slice(0, n), width, paint);
  if (lines.length > n) shown.push(s.dim(`    … +${lines.length - n} lines`));
  return shown;
}

/** The last `n` lines of `text` (a failed command's errors are at its end), after a "… N earlier lines" note. */
export function previewTail(
  text: string,
  n: number,
  width: number,
  paint: (t: string) => string,
  s: Style,
): string[] {
  const lines = previewLines(text);
  const shown = indented(lines.slice(-n), width, paint);
  return lines.length > n ? [s.dim(`    … ${lines.length - n} earlier lines`), ...shown] : shown;
}

const EXIT_NOTE = /\n?\[exit code -?\d+\]$/;

export function toolResultLines(
  ev: ToolResultEvent,
  diff: ToolDiffEvent | undefined,
  s: Style,
  width: number,
): string[] {
  const took = formatElapsed(ev.duration_ms);
  const lineCount = (t: string) => (t === "" ? 0 : t.replace(/\n$/, "").split("\n").length);
  if (ev.name === "bash" && ev.exit_code !== undefined) {
    const code = ev.exit_code;
    const status = code === 0 ? s.green("exit 0") : s.red(code === null ? "killed" : `exit ${code}`);
    const body = ev.content.replace(EXIT_NOTE, "");
    return [
      truncate(`  ${s.dim("⎿")} ${status} ${s.dim(`· ${took}`)}`, width),
      ...(code === 0
        ? preview(body, PREVIEW_LINES, width, s.dim, s)
        : previewTail(body, PREVIEW_LINES, width, s.red, s)),
    ];
  }
  // Refused (declined, read-only, cancelled at the question): nothing ran, so nothing "failed".
  if (ev.is_error && /^refused\b/.test(ev.content)) {
    return [
      truncate(`  ${s.yellow("⊘")} ${s.yellow("not run")} ${s.dim(`· ${took}`)}`, width),
      ...preview(ev.content, PREVIEW_LINES, width, s.dim, s),
    ];
  }
  if (ev.is_error) {
    return [
      truncate(`  ${s.red("✗")} ${s.red(`failed · ${took}`)}`, width),
      ...preview(ev.content, PREVIEW_LINES, width, s.red, s),
    ];
  }
  if (diff) return diffLines(diff, s, width);
  if (ev.name === "read") {
    const n = lineCount(ev.content);
    return [truncate(`  ${s.dim("⎿")} ${s.dim(`${n} line${n === 1 ? "" : "s"} · ${took}`)}`, width)];
  }
  return [
    truncate(`  ${s.dim("⎿")} ${s.dim(took)}`, width),
    ...preview(ev.content, PREVIEW_LINES, width, s.dim, s),
  ];
}

export function diffLines(d: ToolDiffEvent, s: Style, width: number): string[] {
  const head = `  ${s.dim("⎿")} ${sanitizeLine(d.path)} ${s.added(`+${d.added}`)} ${s.removed(`-${d.removed}`)}`;
  const out = [truncate(head, width)];
  const numWidth = Math.max(1, ...d.hunks.flatMap((h) => h.map((l) => String(l.new ?? l.old ?? 0).length)));
  const fmt = (l: DiffLine): string => {
    const no = String(l.op === "-" ? l.old : l.new).padStart(numWidth);
    const text = sanitize(l.text);
    const body = `${no} ${l.op} ${text}`;
    const paint = l.op === "+" ? s.added : l.op === "-" ? s.removed : s.dim;
    return truncate(`    ${paint(body)}`, width);
  };
  let shown = 0;
  let left = d.omitted;
  d.hunks.forEach((h, i) => {
    if (i > 0 && shown < DIFF_LINES) out.push(s.dim(`    ${" ".repeat(numWidth)} ⋮`));
    for (const l of h) {
      if (shown >= DIFF_LINES) {
        left++;
        continue;
      }
      out.push(fmt(l));
      shown++;
    }
  });
  if (left > 0) out.push(s.dim(`    … +${left} diff lines`));
  return out;
}

/** The last `n` lines of a command's output so far, for the live view (already sanitised text). */
export function tailLines(text: string, n: number, width: number): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  return lines.slice(-n).map((l) => (visibleWidth(l) > width - 4 ? truncate(l, width - 4) : l));
}
