// The job log's reading of `i -p --json`: one short line per event worth seeing (a tool call, what a
// file tool changed, a failed call, a retry, a warning, an error), nothing for the deltas in between.
// Every line is inert: control characters are dropped and a line never starts with `::`, so text from
// the model or a tool cannot issue a workflow command (set an output, add a path, mask nothing).

/** An event of the stream, as far as the log reads it (schemas/events.json is the whole shape). */
export interface StreamEvent {
  type: string;
  [key: string]: unknown;
}

/** C0 and C1 control characters other than tab and newline. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

function dropControls(text: string): string {
  let out = "";
  for (const ch of text) if (!isControl(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

/** Text made safe for the job log: no control characters, no workflow command at a line's start. */
export function inert(text: string): string {
  return dropControls(text.replace(/\r\n?/g, "\n"))
    .split("\n")
    .map((l) => (l.trimStart().startsWith("::") ? `· ${l}` : l))
    .join("\n");
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

function short(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A call's arguments as a few words: a path, a command, a pattern, else the JSON cut short. */
function callSummary(name: string, args: string): string {
  try {
    const a = JSON.parse(args) as Record<string, unknown>;
    const main = a.command ?? a.path ?? a.file_path ?? a.pattern ?? a.url ?? a.description;
    if (typeof main === "string") return `${name} ${short(main)}`;
  } catch {}
  return `${name} ${short(args)}`;
}

type DiffLine = { op: string; text: string };

/** The log lines for one event (often none). */
export function logLines(ev: StreamEvent): string[] {
  switch (ev.type) {
    case "session":
      return [`session ${str(ev.id)}${ev.resumed ? " (resumed)" : ""}`];
    case "tool_call":
      return [`▸ ${callSummary(str(ev.name), str(ev.arguments))}`];
    case "tool_diff": {
      const hunks = (ev.hunks as DiffLine[][] | undefined) ?? [];
      const lines = hunks.flat().map((l) => `    ${l.op}${l.text}`);
      const omitted =
        typeof ev.omitted === "number" && ev.omitted > 0 ? [`    … ${ev.omitted} more lines`] : [];
      return [`  ${str(ev.path)}: +${ev.added} -${ev.removed}`, ...lines.slice(0, 60), ...omitted];
    }
    case "tool_result":
      return ev.is_error ? [`  ✗ ${str(ev.name)}: ${short(str(ev.content), 300)}`] : [];
    case "task":
      return ev.phase === "start" ? [`▸ task (${str(ev.agent)}): ${short(str(ev.description))}`] : [];
    case "retry":
      return [`retrying (attempt ${ev.attempt}, in ${ev.delay_ms} ms): ${short(str(ev.reason))}`];
    case "compaction":
      return ev.phase === "done"
        ? [`compacted the context: ${ev.before_tokens} → ${ev.after_tokens} tokens`]
        : ev.phase === "failed"
          ? [`compaction failed: ${short(str(ev.error))}`]
          : [];
    case "notice":
      return ev.level === "warn" ? [`warning: ${short(str(ev.message), 300)}`] : [];
    case "hook":
      return [`hook ${str(ev.hook)}: ${ev.outcome}: ${short(str(ev.message))}`];
    case "error":
      return [`error: ${str(ev.message)}`];
    case "done":
      return [
        `done: ${ev.turns} model requests${typeof ev.cost_usd === "number" ? `, $${ev.cost_usd.toFixed(4)}` : ""}`,
      ];
    default:
      return [];
  }
}
