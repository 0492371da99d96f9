// The built-in compaction policy, read from config_dir/compact.json (the worker's cwd) on every
// compaction so edits apply without a restart. Bad files are errors that name the file and the fix.
import { join } from "node:path";
import { type CompactFile, type ImagesPolicy, MAX_PROMPT_CHARS } from "../../src/contract/config.ts";
import { PROMPTS } from "../../src/contract/generated/prompts.ts";
import { loadCompactFile, readCompactPrompt } from "../../src/lib/config-files.ts";
import { substituteWorkspace } from "../sdk/read-text.ts";
import { withSummaryInstructions } from "../sdk/summary-prompt.ts";

// Only this worker (and the core's start-up check of built-in modules) reads compact.json: a replacement
// compactor owns its config. The loader is shared with the core through the contract.
export { loadCompactFile, readCompactPrompt };

export const DEFAULT_KEEP_RECENT = 4;

export interface CompactPolicy {
  enabled: boolean;
  keepRecent: number;
  /** from compact.json; undefined lets the model's `images` setting decide */
  images: ImagesPolicy | undefined;
  /** the model-free first stage: shorten old tool outputs when that alone is enough */
  prune: { enabled: boolean; keepRecent: number };
  file: string;
  config: CompactFile;
}

export function loadPolicy(configDir: string): CompactPolicy {
  const config = loadCompactFile(configDir);
  const keepRecent = config.keep_recent ?? DEFAULT_KEEP_RECENT;
  return {
    enabled: config.enabled ?? true,
    keepRecent,
    images: config.images,
    prune: {
      enabled: config.prune?.enabled ?? true,
      keepRecent: config.prune?.keep_recent ?? keepRecent,
    },
    file: join(configDir, "compact.json"),
    config,
  };
}

/** compact.json `images`, else the model's `images` setting, else keep. */
export function imagesPolicy(policy: CompactPolicy, model: unknown): ImagesPolicy {
  const fromModel = (model as { images?: unknown } | undefined)?.images;
  if (policy.images) return policy.images;
  if (fromModel === "keep" || fromModel === "omit" || fromModel === "describe") return fromModel;
  return "keep";
}

/**
 * The summary prompt, by precedence: the compact.json prompt file (plus the user's instructions), else a
 * prompt an earlier hook supplied (already including instructions, used as-is), else the embedded
 * default (plus instructions). {{workspace}} is substituted in the texts this module owns.
 */
export function choosePrompt(
  policy: CompactPolicy,
  data: Record<string, unknown>,
  workspace: string,
): string {
  let prompt: string;
  let source: string;
  if (policy.config.prompt !== undefined) {
    const text = readCompactPrompt(policy.file, policy.config.prompt);
    prompt = withSummaryInstructions(substituteWorkspace(text, workspace), data.instructions);
    source = `${policy.file} prompt`;
  } else if (typeof data.prompt === "string" && data.prompt.trim() !== "") {
    return data.prompt;
  } else {
    prompt = withSummaryInstructions(substituteWorkspace(PROMPTS.compact, workspace), data.instructions);
    source = "the default prompt";
  }
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new Error(
      `compact: ${source} with the /compact instructions has ${prompt.length} characters, over the ${MAX_PROMPT_CHARS} limit; shorten the instructions`,
    );
  }
  return prompt;
}
