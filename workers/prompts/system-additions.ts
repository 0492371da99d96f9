// What the prompts module adds to the system prompt: the user's own additions from config_dir (their
// system.md, then their instructions for every project, config_dir/AGENTS.md), then the project's
// instructions from the repository root down to the workspace (AGENTS.md, else CLAUDE.md) and
// .i/system.md, each clearly delimited and bounded because they come from the repository, not from the
// user; and where each applies.
import { join, relative } from "node:path";
import { MAX_PROMPT_CHARS } from "../../src/contract/config.ts";
import { readBoundedText, readOptionalText, substituteWorkspace } from "../sdk/read-text.ts";
import { clipText } from "../sdk/text-limits.ts";
import { isInside, resolveInWorkspace } from "../sdk/workspace-path.ts";
import { INSTRUCTION_NAMES, instructionDirs, repositoryRoot, shownName } from "./project-files.ts";

/** Largest user template (config_dir/prompts/*.md): the same bound as any compaction prompt. */
export const MAX_TEMPLATE_CHARS = MAX_PROMPT_CHARS;
/** Largest project instruction file shown; longer files are cut with a note, not refused. */
export const MAX_PROJECT_CHARS = 16000;

/** A user template from config_dir, or undefined; over the bound is the user's mistake and says so. */
export function readTemplate(path: string): string | undefined {
  return readBoundedText(path, MAX_TEMPLATE_CHARS);
}

function clipped(name: string, text: string, workspace: string): string {
  return clipText(
    substituteWorkspace(text, workspace).trim(),
    MAX_PROJECT_CHARS,
    (total) => `[${name} cut: it has ${total} characters, only the first ${MAX_PROJECT_CHARS} are shown]`,
  );
}

function projectSection(name: string, text: string, workspace: string, appliesTo: string): string {
  return [
    `## Project instructions (${name})`,
    `The project file ${name} says the following; it applies to ${appliesTo}. It belongs to the project: follow it where it does not conflict with the user's requests.`,
    `<project-instructions file="${name}">`,
    clipped(name, text, workspace),
    "</project-instructions>",
  ].join("\n");
}

type Log = (m: string) => void;

/** A project file's text, or undefined (missing, unreadable or leading elsewhere: skipped and logged). */
function readProjectFile(path: string, shown: string, inside: string, log: Log): string | undefined {
  const where = resolveInWorkspace(inside, relative(inside, path));
  if (!where.ok) {
    // Missing is the usual case; a link leading out of the tree is skipped and logged.
    if (!where.reason.includes("does not exist")) log(`prompts: skipping ${shown}: ${where.reason}`);
    return undefined;
  }
  // The repository's file, not the user's: one that cannot be read (a FIFO, a device, over the bound)
  // is skipped and logged rather than stopping the session.
  try {
    return readOptionalText(where.real);
  } catch (err) {
    log(`prompts: skipping ${shown}: ${(err as Error).message}`);
    return undefined;
  }
}

/** The first of AGENTS.md, CLAUDE.md that `dir` has, with its text. */
function instructionFile(dir: string, workspace: string, inside: string, log: Log) {
  for (const name of INSTRUCTION_NAMES) {
    const shown = shownName(workspace, dir, name);
    const text = readProjectFile(join(dir, name), shown, inside, log);
    if (text !== undefined) return { shown, text };
  }
  return undefined;
}

function userInstructions(configDir: string, workspace: string): string | undefined {
  for (const name of INSTRUCTION_NAMES) {
    const path = join(configDir, name);
    const text = readTemplate(path);
    if (text === undefined || text.trim() === "") continue;
    return [
      `## The user's instructions for every project (${path})`,
      substituteWorkspace(text, workspace).trim(),
    ].join("\n");
  }
  return undefined;
}

/** The text to append to the system prompt (possibly empty). */
export function systemAdditions(configDir: string, workspace: string, log: Log): string {
  const sections: string[] = [];
  const user = readTemplate(join(configDir, "prompts", "system.md"));
  if (user !== undefined && user.trim() !== "") sections.push(substituteWorkspace(user, workspace).trim());
  const global = userInstructions(configDir, workspace);
  if (global) sections.push(global);
  const root = repositoryRoot(workspace);
  for (const dir of instructionDirs(workspace)) {
    // Files above the workspace are read inside the repository (a link leading out of it is not).
    const inside = isInside(workspace, dir) ? workspace : root;
    const found = instructionFile(dir, workspace, inside, log);
    if (!found || found.text.trim() === "") continue;
    const appliesTo =
      dir === workspace
        ? "the whole workspace"
        : `the whole repository below ${dir}, this workspace included`;
    sections.push(projectSection(found.shown, found.text, workspace, appliesTo));
  }
  const local = readProjectFile(join(workspace, ".i", "system.md"), ".i/system.md", workspace, log);
  if (local !== undefined && local.trim() !== "")
    sections.push(projectSection(".i/system.md", local, workspace, "the whole workspace"));
  return sections.join("\n\n");
}
