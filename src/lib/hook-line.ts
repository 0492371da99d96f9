// One line for a hook that blocked something or failed, naming the hook (print mode's stderr and the
// console both say it this way). The hook's text is untrusted: the caller sanitises the line.
import type { AgentEvent } from "../contract/events.ts";

type HookEvent = Extract<AgentEvent, { type: "hook" }>;

const MAX_SHOWN = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN)}…` : flat;
}

export function hookLine(ev: HookEvent): string {
  const what = ev.outcome === "block" ? "blocked" : "failed (ignored)";
  return `hook ${oneLine(ev.hook)} ${what}: ${oneLine(ev.message)}`;
}
