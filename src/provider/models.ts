// Which limits apply to a model name. Names arrive in many spellings — dated snapshots
// ("claude-sonnet-4-5-20250929"), Ollama tags ("qwen2.5-coder:32b"), vendor prefixes
// ("anthropic/claude-sonnet-4"), Hugging Face ids — so lookup normalises step by step, then falls back to
// the longest known prefix. The user's config.json `models` always wins over the embedded table.
import { join } from "node:path";
import { configDir } from "../config/paths.ts";
import type { ConfigFile, ModelInfo } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";
import { MODEL_ALIASES, MODEL_TABLE } from "./model-table.ts";

export type ResolvedModel = ModelInfo & { name: string };

const DATE_OR_CHANNEL = /[-@](\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest|preview)$/;
const BEDROCK_PREFIX =
  /^(?:(?:us|eu|apac|global|jp|au|ca|us-gov)\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer)\./;
const BOUNDARY = new Set(["-", ".", ":", "_", "@", "/", " "]);

/** The spellings to try, from the name exactly as given to the most normalised form. */
export function nameForms(name: string): string[] {
  const forms = [name];
  let n = name.toLowerCase();
  forms.push(n);
  n = n.slice(n.lastIndexOf("/") + 1); // vendor prefix: "openai/gpt-4o", "Qwen/Qwen2.5-Coder-7B"
  forms.push(n);
  n = n.replace(/:.*$/, ""); // Ollama tag: "llama3.1:8b-instruct-q4_K_M"
  forms.push(n);
  // Bedrock ids: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "amazon.nova-pro-v1:0"
  const bedrock = n.replace(BEDROCK_PREFIX, "");
  if (bedrock !== n) {
    n = bedrock.replace(/-v\d+$/, "");
    forms.push(n);
  }
  for (let prev = ""; prev !== n; ) {
    prev = n;
    n = n.replace(DATE_OR_CHANNEL, "");
  }
  forms.push(n);
  return [...new Set(forms)];
}

/** The key in `keys` naming this model: an exact form first, else the longest prefix ending at a boundary. */
function findKey(name: string, keys: readonly string[]): string | undefined {
  const byLower = new Map(keys.map((k) => [k.toLowerCase(), k]));
  const forms = nameForms(name);
  for (const f of forms) {
    const hit = keys.includes(f) ? f : byLower.get(f);
    if (hit !== undefined) return hit;
  }
  const base = forms[forms.length - 1] ?? name;
  let best: string | undefined;
  for (const [lower, key] of byLower) {
    if (!base.startsWith(lower)) continue;
    const next = base.charAt(lower.length);
    if (next !== "" && !BOUNDARY.has(next)) continue;
    if (!best || lower.length > best.length) best = key;
  }
  return best;
}

const TABLE_KEYS = [...Object.keys(MODEL_TABLE), ...Object.keys(MODEL_ALIASES)];

/** The embedded table's entry for a model name, without user overrides. */
export function lookupModel(name: string): ModelInfo | undefined {
  const key = findKey(name, TABLE_KEYS);
  if (key === undefined) return undefined;
  return MODEL_TABLE[MODEL_ALIASES[key] ?? key];
}

/**
 * The limits for `name`: config.json `models` (matched like the table) over the embedded table; fields an
 * override leaves out (images, image_tokens…) come from the table entry when there is one.
 */
export function resolveModel(name: string, config: ConfigFile, dir: string = configDir()): ResolvedModel {
  const overrides = config.models ?? {};
  const overrideKey = findKey(name, Object.keys(overrides));
  const override = overrideKey !== undefined ? overrides[overrideKey] : undefined;
  const known = lookupModel(name);
  const info = override ? { ...known, ...override } : known;
  if (!info) {
    const example = `{"models":{${JSON.stringify(name)}:{"context_window":N,"max_output_tokens":N}}}`;
    throw new UserError(
      `unknown model "${name}": its context window is not known; add it to ${join(dir, "config.json")} as ${example}`,
    );
  }
  const budget = info.thinking_budget;
  if (budget !== undefined && info.max_output_tokens !== undefined && budget >= info.max_output_tokens) {
    throw new UserError(
      `model "${name}" in ${join(dir, "config.json")}: thinking_budget ${budget} must be less than max_output_tokens ${info.max_output_tokens} (the answer needs room after the thinking)`,
    );
  }
  return { ...info, name };
}
