// The `before_compact` side of the prompts module: it supplies the summary prompt (a prompt supplied by
// an earlier hook wins over the compactor's own) from the user's template or the embedded default, plus any instructions
// the user gave with `/compact <instructions>` or `i compact --instructions`.
import { join } from "node:path";
import { z } from "zod";
import { PROMPTS } from "../../src/contract/generated/prompts.ts";
import type { Data } from "../sdk/module.ts";
import { substituteWorkspace } from "../sdk/read-text.ts";
import { withSummaryInstructions } from "../sdk/summary-prompt.ts";
import { readTemplate } from "./system-additions.ts";

export const MAX_INSTRUCTIONS_CHARS = 8000;

const BeforeCompactData = z.lazy(() =>
  z.looseObject({
    prompt: z.unknown().optional(),
    instructions: z.string().nullish(),
  }),
);

export function supplyCompactPrompt(data: Data, configDir: string, workspace: string): Data {
  const parsed = BeforeCompactData.safeParse(data);
  if (!parsed.success) throw new Error("prompts: before_compact data.instructions must be a string");
  const { prompt, instructions } = parsed.data;
  // An earlier hook (or the core) already chose a prompt: it wins, untouched.
  if (typeof prompt === "string" && prompt.trim() !== "") return data;

  const template = readTemplate(join(configDir, "prompts", "summary.md"));
  const text = substituteWorkspace(
    template !== undefined && template.trim() !== "" ? template : PROMPTS.compact,
    workspace,
  ).trimEnd();
  const extra = instructions?.trim() ?? "";
  if (extra.length > MAX_INSTRUCTIONS_CHARS) {
    throw new Error(
      `compaction instructions have ${extra.length} characters, over the ${MAX_INSTRUCTIONS_CHARS} limit; shorten them`,
    );
  }
  return { ...data, prompt: withSummaryInstructions(`${text}\n`, extra) };
}
