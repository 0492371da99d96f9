// What the prompts module adds to the system prompt: the user's own additions from config_dir, then the
// workspace's project instructions (AGENTS.md, .i/system.md), each clearly delimited and bounded because
// they come from the repository, not from the user.
import { join } from "node:path";
import { MAX_PROMPT_CHARS } from "../../src/contract/config.ts";
import { readBoundedText, readOptionalText, substituteWorkspace } from "../sdk/read-text.ts";
import { clipText } from "../sdk/text-limits.ts";
import { resolveInWorkspace } from "../sdk/workspace-path.ts";

/** Largest user template (config_dir/prompts/*.md): the same bound as any compaction prompt. */
export const MAX_TEMPLATE_CHARS = MAX_PROMPT_CHARS;
/** Largest project instruction file shown; longer files are cut with a note, not refused. */
export const MAX_PROJECT_CHARS = 16000;
/** Workspace files read as project instructions, in this order. */
export const PROJECT_FILES = ["AGENTS.md", ".i/system.md"] as const;

/** A user template from config_dir, or undefined; over the bound is the user's mistake and says so. */
export function readTemplate(path: string): string | undefined {
  return readBoundedText(path, MAX_TEMPLATE_CHARS);
}

function projectSection(name: string, text: string, workspace: string): string {
  const body = clipText(
    substituteWorkspace(text, workspace).trim(),
    MAX_PROJECT_CHARS,
    (total) => `[${name} cut: it has ${total} characters, only the first ${MAX_PROJECT_CHARS} are shown]`,
  );
  return [
    `## Project instructions (${name})`,
    `The workspace file ${name} says the following. It belongs to the project: follow it where it does not conflict with the user's requests.`,
    `<project-instructions file="${name}">`,
    body,
    "</project-instructions>",
  ].join("\n");
}

/** The text to append to the system prompt (possibly empty). */
export function systemAdditions(configDir: string, workspace: string, log: (m: string) => void): string {
  const sections: string[] = [];
  const user = readTemplate(join(configDir, "prompts", "system.md"));
  if (user !== undefined && user.trim() !== "") sections.push(substituteWorkspace(user, workspace).trim());
  for (const name of PROJECT_FILES) {
    const where = resolveInWorkspace(workspace, name);
    if (!where.ok) {
      // Missing is the usual case; a link leading out of the workspace is skipped and logged.
      if (!where.reason.includes("does not exist")) log(`prompts: skipping ${name}: ${where.reason}`);
      continue;
    }
    // The repository's file, not the user's: one that cannot be read (a FIFO, a device, over the bound)
    // is skipped and logged rather than stopping the session.
    let text: string | undefined;
    try {
      text = readOptionalText(where.real);
    } catch (err) {
      log(`prompts: skipping ${name}: ${(err as Error).message}`);
      continue;
    }
    if (text !== undefined && text.trim() !== "") sections.push(projectSection(name, text, workspace));
  }
  return sections.join("\n\n");
}
