// Models of one family share habits; a few lines of the system prompt speak to them. The family is read
// from the model's name (the same name the model table is keyed by).

export type ModelFamily = "openai-reasoning" | "openai" | "anthropic" | "open";

export function modelFamily(model: string): ModelFamily {
  const n = model.toLowerCase().replace(/^.*\//, "");
  if (/^(gpt-5|codex|o[1-9])/.test(n)) return "openai-reasoning";
  if (/^(gpt-|chatgpt)/.test(n)) return "openai";
  if (n.includes("claude")) return "anthropic";
  return "open";
}

const NOTES: Record<ModelFamily, string[]> = {
  "openai-reasoning": [
    "- Before a group of tool calls, write one short sentence saying what you are about to do.",
    "- Do not end your turn with a plan or a question about whether to proceed: carry the plan out.",
  ],
  openai: ["- Do not end your turn with a plan or a question about whether to proceed: carry the plan out."],
  anthropic: ["- Do not create documentation, summary or example files unless the user asks for them."],
  open: [
    "- Call a tool with exactly the arguments its schema lists, as one JSON object. When a call fails, read the error and correct the arguments instead of sending the same call again.",
  ],
};

export function familyNotes(model: string): string {
  return NOTES[modelFamily(model)].join("\n");
}
