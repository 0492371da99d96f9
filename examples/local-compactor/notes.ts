// Extractive notes: what the user asked, which files were touched, what failed, and where the assistant
// left off — copied from the transcript, not written by a model. Lossy by design, and capped in bytes.
import { contentText, type Message } from "@i-agent/worker-sdk";

export const NOTES_MAX_BYTES = 2048;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` cut to at most `max` UTF-8 bytes, never inside a character. */
export function capBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  // Back up over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end));
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function pathOf(args: string): string | undefined {
  try {
    const p = (JSON.parse(args) as { path?: unknown })?.path;
    return typeof p === "string" ? p : undefined;
  } catch {
    return undefined;
  }
}

export function extractNotes(messages: readonly Message[]): string {
  const asks: string[] = [];
  const files = new Map<string, Set<string>>();
  const failures: string[] = [];
  let lastAssistant = "";
  for (const m of messages) {
    // Only text is read: image parts and private adapter fields never reach the notes.
    const text = contentText(m.content);
    if (m.role === "user" && m.meta?.summary !== true && text.trim()) asks.push(oneLine(text, 160));
    if (m.role === "user" && m.meta?.summary === true) asks.push(`(earlier summary) ${oneLine(text, 300)}`);
    if (m.role === "assistant" && text.trim()) lastAssistant = text;
    for (const call of m.tool_calls ?? []) {
      const path = pathOf(call.arguments);
      if (path) files.set(path, (files.get(path) ?? new Set()).add(call.name));
    }
    if (m.role === "tool" && (m.meta?.is_error === true || /^(error|fatal)\b/i.test(text.trimStart()))) {
      failures.push(oneLine(text, 140));
    }
  }
  const sections: string[] = ["Extractive notes (local compactor; lossy, no model was asked):"];
  // Most recent first: when the cap bites, the oldest items go.
  if (asks.length)
    sections.push(
      `User requests, latest first:\n${asks
        .reverse()
        .slice(0, 8)
        .map((a) => `- ${a}`)
        .join("\n")}`,
    );
  if (files.size) {
    const list = [...files].reverse().slice(0, 20);
    sections.push(
      `Files used, latest first:\n${list.map(([p, tools]) => `- ${p} (${[...tools].join(", ")})`).join("\n")}`,
    );
  }
  if (failures.length)
    sections.push(
      `Failures seen:\n${failures
        .slice(-4)
        .map((f) => `- ${f}`)
        .join("\n")}`,
    );
  if (lastAssistant) sections.push(`Where the assistant left off:\n${oneLine(lastAssistant, 400)}`);
  return capBytes(sections.join("\n\n"), NOTES_MAX_BYTES);
}
