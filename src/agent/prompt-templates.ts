// Prompt templates as slash commands: `.i/prompts/NAME.md` in the workspace and `config_dir/prompts/NAME.md`
// (the workspace's win) become `/NAME args`. Read like the prompts module reads its templates (same size
// bound, `{{workspace}}` substituted); the workspace's files only when they stay inside it. `system.md` and
// `summary.md` in config_dir are the prompts module's own, not commands.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { MAX_PROMPT_CHARS } from "../contract/config.ts";
import type { PromptTemplate } from "../lib/prompt-template.ts";
import { readBoundedText } from "../lib/text-files.ts";
import { resolveInWorkspace } from "../tools/paths.ts";
import { parseFrontMatter } from "./front-matter.ts";

export type { PromptTemplate };

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const RESERVED_IN_CONFIG = new Set(["system", "summary"]);

function listMd(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".md") && NAME.test(f.slice(0, -3)))
      .sort();
  } catch {
    return [];
  }
}

function describe(body: string): string {
  const first = body.split("\n").find((l) => l.trim() !== "") ?? "";
  const line = first.replace(/^#+\s*/, "").trim();
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}

/**
 * The templates found, with problems (an oversized file, a link out of the workspace) reported in
 * `problems` instead of stopping the console.
 */
export function loadTemplates(
  workspace: string,
  configDir: string,
): { templates: PromptTemplate[]; problems: string[] } {
  const found = new Map<string, PromptTemplate>();
  const problems: string[] = [];
  const add = (name: string, path: string) => {
    try {
      const text = readBoundedText(path, MAX_PROMPT_CHARS);
      if (text === undefined) return;
      const { fields, body } = parseFrontMatter(text);
      if (body.trim() === "") return;
      const described = fields.description ? describe(fields.description) : describe(body);
      found.set(name, {
        name,
        path,
        description: described,
        ...(fields["argument-hint"] ? { argumentHint: fields["argument-hint"] } : {}),
        ...(fields.model ? { model: fields.model } : {}),
        body,
      });
    } catch (err) {
      problems.push((err as Error).message);
    }
  };
  const cfgPrompts = join(configDir, "prompts");
  for (const f of listMd(cfgPrompts)) {
    const name = f.slice(0, -3);
    if (!RESERVED_IN_CONFIG.has(name)) add(name, join(cfgPrompts, f));
  }
  let wsPrompts: string | undefined;
  // Read again before every message (and after every editor turn): a workspace without the folder, the
  // usual case, costs one lstat instead of resolving real paths.
  if (lstatSync(join(workspace, ".i", "prompts"), { throwIfNoEntry: false }))
    try {
      wsPrompts = resolveInWorkspace(workspace, ".i/prompts");
    } catch (err) {
      problems.push(`.i/prompts: ${(err as Error).message}`);
    }
  if (wsPrompts) {
    for (const f of listMd(wsPrompts)) {
      try {
        add(f.slice(0, -3), resolveInWorkspace(workspace, `.i/prompts/${f}`));
      } catch (err) {
        problems.push(`.i/prompts/${f}: ${(err as Error).message}`);
      }
    }
  }
  return { templates: [...found.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}
