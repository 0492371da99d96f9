// Rendering prepared messages as the plain-text transcript a summariser reads. The core does this itself
// (not the compactor) so the untrusted-transcript wrapper always surrounds exactly what was rendered, and
// nothing private (adapter state, image bytes, bookkeeping) can reach the summary request from here.
import { PROMPTS } from "../contract/generated/prompts.ts";
import { contentWithImageMarkers, type Message } from "../contract/history.ts";

/** One block per message; tool calls and results are labelled so the summariser can pair them. */
export function renderBlocks(messages: readonly Message[]): string[] {
  const names = new Map<string, string>();
  const blocks: string[] = [];
  for (const m of messages) {
    const text = contentWithImageMarkers(m.content);
    if (m.role === "tool") {
      const name = names.get(m.tool_call_id ?? "") ?? "tool";
      blocks.push(`[tool result: ${name} (${m.tool_call_id ?? "?"})]\n${text}`);
      continue;
    }
    let block = `[${m.role}]${text ? `\n${text}` : ""}`;
    for (const c of m.tool_calls ?? []) {
      names.set(c.id, c.name);
      block += `\n[tool call: ${c.name} (${c.id})] ${c.arguments}`;
    }
    blocks.push(block);
  }
  return blocks;
}

/** The blocks of a transcript joined as the summariser reads them. */
export function joinBlocks(blocks: readonly string[]): string {
  return blocks.join("\n\n");
}

export function renderTranscript(messages: readonly Message[]): string {
  return joinBlocks(renderBlocks(messages));
}

/**
 * Wrapper markers inside untrusted text are defused so the text cannot close the wrapper early and pose
 * as instructions outside it.
 */
export function defuse(text: string, tag: string): string {
  return text.replaceAll(`</${tag}>`, `</ ${tag}>`).replaceAll(`<${tag}>`, `< ${tag}>`);
}

/** The transcript inside the untrusted-transcript wrapper (prompts/untrusted.txt). */
export function wrapTranscript(transcript: string): string {
  return PROMPTS.untrusted.replace("{{transcript}}", () => defuse(transcript, "transcript"));
}

/** The summary inside the summary-message wrapper (prompts/summary-message.txt). */
export function wrapSummary(summary: string): string {
  return PROMPTS["summary-message"].replace("{{summary}}", () => defuse(summary, "summary")).trimEnd();
}
