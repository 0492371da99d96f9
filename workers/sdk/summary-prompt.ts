// The user's own words for one compaction (`/compact <instructions>`, `i compact --instructions`) go under
// one fixed heading at the end of the summary prompt, whichever module builds that prompt.

/** `prompt` with the user's instructions appended under their heading; unchanged when there are none. */
export function withSummaryInstructions(prompt: string, instructions: unknown): string {
  if (typeof instructions !== "string" || instructions.trim() === "") return prompt;
  return `${prompt.trimEnd()}\n\n## Additional instructions from the user for this summary\n${instructions.trim()}\n`;
}
