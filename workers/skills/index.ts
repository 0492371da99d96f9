// The skills module: lists the available skills in the system prompt and loads one on demand.

import { MAX_SKILL_CHARS, type Skill, SkillCatalog, skillText } from "../../src/lib/skill-catalog.ts";
import { defineWorkerModule, toolError, toolText } from "../sdk/module.ts";
import { appendToSystem } from "../sdk/system-prompt.ts";
import { clipLine } from "../sdk/text-limits.ts";
import { defineTool } from "../sdk/tool.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";

/** At most this many skills are listed in the system prompt; the tool can still load any of them. */
export const MAX_LISTED = 100;
export const MAX_DESCRIPTION_CHARS = 200;
export { MAX_SKILL_CHARS };

export function skillListing(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const shown = skills.slice(0, MAX_LISTED);
  const lines = shown.map((s) => `- ${s.name}: ${clipLine(s.description, MAX_DESCRIPTION_CHARS)}`);
  if (skills.length > shown.length) {
    lines.push(
      `- … and ${skills.length - shown.length} more (ask the skill tool for a name to see them all)`,
    );
  }
  return [
    "## Skills",
    "These skills hold instructions for specific tasks. When one fits the task, call the `skill` tool with its name to load it before you start.",
    ...lines,
  ].join("\n");
}

export function createSkillsModule(configDir = workerConfigDir()) {
  let catalog: SkillCatalog | undefined;
  const skillsOf = (workspace: string, log: (m: string) => void) => {
    catalog ??= new SkillCatalog(log);
    return catalog.list(configDir, workspace);
  };
  return defineWorkerModule({
    name: "skills",
    hooks: {
      system_prompt: (data, ctx) =>
        appendToSystem(data, "skills", skillListing(skillsOf(ctx.workspace, ctx.log))),
    },
    tools: [
      defineTool("skills", "skill", (args, ctx) => {
        const skills = skillsOf(ctx.workspace, ctx.log);
        const skill = skills.find((s) => s.name === args.name);
        if (!skill) {
          const names = skills.map((s) => s.name).join(", ");
          return toolError(
            `no skill named "${args.name}"; ${names ? `available skills: ${names}` : "no skills are installed"}`,
          );
        }
        return toolText(skillText(skill));
      }),
    ],
  });
}
