// The Gemini request as text, from each message's parts made into JSON once: the whole history goes with
// every request, and converting and serialising all of it again each time is what made a long session's
// requests cost more and more. A message is never changed once in a history; a tool result's parts also
// depend on the name of the call it answers, so that name is kept with them and checked.
import type { Message } from "../../contract/history.ts";
import { contentText } from "../../contract/history.ts";
import type { ModelRequest } from "../types.ts";
import { callNames, geminiTools, generationConfig, messageParts } from "./request.ts";

const partTexts = new WeakMap<Message, { text: string; name?: string }>();
const toolTexts = new WeakMap<readonly unknown[], string>();

function partsText(msg: Message, names: Map<string, string>): string {
  const name = msg.role === "tool" ? (names.get(msg.tool_call_id ?? "") ?? "") : undefined;
  const kept = partTexts.get(msg);
  if (kept && kept.name === name) return kept.text;
  const parts = messageParts(msg, names);
  const text = parts.map((p) => JSON.stringify(p)).join(",");
  partTexts.set(msg, name === undefined ? { text } : { text, name });
  return text;
}

/** Exactly JSON.stringify(geminiRequestBody(req)). */
export function geminiRequestText(req: ModelRequest): string {
  const names = callNames(req.messages);
  const turns: string[] = [];
  let role: string | undefined;
  let parts: string[] = [];
  const close = () => {
    if (role) turns.push(`{"role":"${role}","parts":[${parts.join(",")}]}`);
  };
  let system: string | undefined;
  req.messages.forEach((msg, i) => {
    if (i === 0 && msg.role === "system") {
      system = contentText(msg.content) || undefined;
      return;
    }
    const text = partsText(msg, names);
    if (text === "") return;
    const r = msg.role === "assistant" ? "model" : "user";
    if (r === role) parts.push(text);
    else {
      close();
      role = r;
      parts = [text];
    }
  });
  close();
  let out = `{"contents":[${turns.join(",")}]`;
  if (system) out += `,"systemInstruction":${JSON.stringify({ parts: [{ text: system }] })}`;
  if (req.tools.length > 0) {
    let tools = toolTexts.get(req.tools);
    if (tools === undefined) {
      tools = JSON.stringify(geminiTools(req.tools));
      toolTexts.set(req.tools, tools);
    }
    out += `,"tools":${tools}`;
  }
  const config = generationConfig(req);
  if (config) out += `,"generationConfig":${JSON.stringify(config)}`;
  return `${out}}`;
}
