// `/init`: the model studies the workspace and writes AGENTS.md. It is an ordinary turn with a built-in
// prompt (prompts/init.txt), so the file goes through the write tool: shown as a diff and approved like any
// write. Extra words after /init are passed on as the user's own instructions.
import { PROMPTS } from "../contract/generated/prompts.ts";

export function initMessage(args: string): string {
  const extra = args.trim() ? `\n\nAlso, from the user: ${args.trim()}` : "";
  return `${PROMPTS.init.trim()}${extra}`;
}
