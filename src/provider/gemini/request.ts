// History → Gemini generateContent request body (the Gemini API and Vertex AI share it). The system message
// becomes `systemInstruction`; assistant turns are role "model" with text and functionCall parts (their
// thought signatures put back where they came from); tool results are functionResponse parts, named after
// the call they answer, in the next user turn; images are inlineData. Consecutive same-role turns merge:
// the API wants user and model to alternate, a call's responses all in the very next turn.
import type { History, Message, Part } from "../../contract/history.ts";
import { contentText } from "../../contract/history.ts";
import { lookupModel } from "../models.ts";
import type { ModelRequest } from "../types.ts";
import { geminiParameters } from "./schema.ts";
import { geminiStateOf } from "./state.ts";

export type GeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { functionCall: { id?: string; name: string; args: unknown }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

export function partsOf(content: string | Part[]): GeminiPart[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  const out: GeminiPart[] = [];
  for (const p of content) {
    if (p.type === "text" && p.text) out.push({ text: p.text });
    if (p.type === "image") out.push({ inlineData: { mimeType: p.media_type, data: p.data } });
  }
  return out;
}

/** Arguments as the object Gemini wants; text that is not one still goes back, so the model sees it. */
function argsOf(args: string): unknown {
  if (args.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  return { invalid_arguments: args };
}

export const SKIP_SIGNATURE = "skip_thought_signature_validator";

export function modelParts(msg: Message): GeminiPart[] {
  const state = geminiStateOf(msg);
  const out: GeminiPart[] = [];
  const text = contentText(msg.content);
  if (text || (state.text && !msg.tool_calls?.length)) {
    out.push({ text, ...(state.text ? { thoughtSignature: state.text } : {}) });
  }
  // Calls made elsewhere (another provider, a compaction) carry no signature; Gemini documents this value
  // for them, so a resumed or switched session still works.
  const unsigned = !msg.tool_calls?.some((c) => state.calls?.[c.id]);
  for (const [i, c] of (msg.tool_calls ?? []).entries()) {
    const sig = state.calls?.[c.id] ?? (unsigned && i === 0 ? SKIP_SIGNATURE : undefined);
    out.push({
      functionCall: { id: c.id, name: c.name, args: argsOf(c.arguments) },
      ...(sig ? { thoughtSignature: sig } : {}),
    });
  }
  // A signature that came on a closing part after the calls goes back on a closing part too.
  if (state.text && !text && msg.tool_calls?.length) out.push({ text: "", thoughtSignature: state.text });
  return out;
}

export function toolParts(msg: Message, names: Map<string, string>): GeminiPart[] {
  const id = msg.tool_call_id ?? "";
  const name = names.get(id) ?? "unknown_tool";
  const text = contentText(msg.content);
  const response = msg.meta?.is_error === true ? { error: text } : { output: text };
  const images =
    typeof msg.content === "string" ? [] : partsOf(msg.content.filter((p) => p.type === "image"));
  return [{ functionResponse: { id, name, response } }, ...images];
}

/** Tool-call id → function name, for the functionResponse parts (Gemini matches responses by name). */
export function callNames(history: History): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of history) for (const c of m.tool_calls ?? []) out.set(c.id, c.name);
  return out;
}

/** One message's parts: the model's own, a tool's response, or the user's content. */
export function messageParts(msg: Message, names: Map<string, string>): GeminiPart[] {
  if (msg.role === "assistant") return modelParts(msg);
  return msg.role === "tool" ? toolParts(msg, names) : partsOf(msg.content);
}

export function geminiContents(messages: History): { system?: string; contents: GeminiContent[] } {
  const names = callNames(messages);
  const contents: GeminiContent[] = [];
  let system: string | undefined;
  messages.forEach((msg, i) => {
    if (i === 0 && msg.role === "system") {
      system = contentText(msg.content) || undefined;
      return;
    }
    const role = msg.role === "assistant" ? "model" : "user";
    const parts = messageParts(msg, names);
    if (parts.length === 0) return;
    const prev = contents[contents.length - 1];
    if (prev && prev.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  });
  return { ...(system !== undefined ? { system } : {}), contents };
}

/** Gemini 2.5 and later think; a model table budget (or the request's) sets how long, -1 lets it choose. */
function thinkingConfig(req: ModelRequest): Record<string, unknown> | undefined {
  if (!/gemini-(2\.5|[3-9])/.test(req.model)) return undefined;
  const budget = req.thinking_budget ?? lookupModel(req.model)?.thinking_budget;
  return { includeThoughts: true, ...(budget !== undefined ? { thinkingBudget: budget } : {}) };
}

export function geminiTools(tools: ModelRequest["tools"]): unknown[] {
  return [
    {
      functionDeclarations: tools.map((t) => {
        const parameters = geminiParameters(t.input_schema);
        return { name: t.name, description: t.description, ...(parameters ? { parameters } : {}) };
      }),
    },
  ];
}

/** maxOutputTokens and thinkingConfig, or undefined when neither applies. */
export function generationConfig(req: ModelRequest): Record<string, unknown> | undefined {
  const max = req.max_output_tokens ?? lookupModel(req.model)?.max_output_tokens;
  const thinking = thinkingConfig(req);
  const config: Record<string, unknown> = {
    ...(max !== undefined ? { maxOutputTokens: max } : {}),
    ...(thinking ? { thinkingConfig: thinking } : {}),
  };
  return Object.keys(config).length > 0 ? config : undefined;
}

export function geminiRequestBody(req: ModelRequest): Record<string, unknown> {
  const { system, contents } = geminiContents(req.messages);
  const body: Record<string, unknown> = { contents };
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  if (req.tools.length > 0) body.tools = geminiTools(req.tools);
  const config = generationConfig(req);
  if (config) body.generationConfig = config;
  return body;
}
