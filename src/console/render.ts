// How agent events look in the terminal. Pure formatting: returns strings, writes nothing.
import type { AgentEvent } from "../contract/events.ts";

const tty = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (tty ? `\u001b[${code}m${s}\u001b[0m` : s);
export const dim = paint("2");
export const bold = paint("1");
export const cyan = paint("36");
export const yellow = paint("33");
export const red = paint("31");
export const green = paint("32");

export const LOGO = [
  "  ██╗",
  "  ╚═╝   i — a coding agent for the terminal",
  "  ██╗   replaceable workers · compaction that never loses your work",
  "  ██║",
  "  ╚═╝",
].join("\n");

function oneLine(s: string, max = 100): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function k(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/** The text for one event, or undefined when the event is not shown (text deltas are written raw). */
export function renderEvent(ev: AgentEvent): string | undefined {
  switch (ev.type) {
    case "session":
      return dim(`${ev.resumed ? "resumed" : "new"} session ${ev.id} · ${ev.workspace}`);
    case "tool_call":
      return `${cyan("⏺")} ${bold(ev.name)}${dim(`(${oneLine(ev.arguments, 80)})`)}`;
    case "tool_result": {
      const first = oneLine(ev.content, 100);
      return `  ${ev.is_error ? red("✗") : dim("⎿")} ${ev.is_error ? red(first) : dim(first)}`;
    }
    case "budget":
      return dim(`context ${k(ev.total)} / ${k(ev.hard_limit)} (${Math.round(ev.ratio * 100)}%)`);
    case "compaction":
      if (ev.phase === "start") return yellow(`⟳ compacting (${ev.reason})…`);
      if (ev.phase === "done")
        return green(
          `⟳ compacted: ${k(ev.before_tokens ?? 0)} → ${k(ev.after_tokens ?? 0)} tokens (${ev.route ?? "?"} summary)`,
        );
      if (ev.phase === "failed") return red(`⟳ compaction failed: ${ev.error ?? "unknown error"}`);
      return dim(`⟳ nothing compacted${ev.error ? `: ${ev.error}` : ""}`);
    case "retry":
      return yellow(`↻ ${ev.reason}; retry ${ev.attempt} in ${Math.round(ev.delay_ms)} ms`);
    case "notice":
      return ev.level === "warn" ? yellow(`! ${ev.message}`) : dim(ev.message);
    case "error":
      return red(`✗ ${ev.message}`);
    default:
      return undefined;
  }
}
