// Finding skills, for the skills module and for front ends that offer them as slash commands: folders
// `<root>/<name>/SKILL.md` under config_dir/skills and <workspace>/.i/skills. The scan runs on every
// request (a directory listing and one stat per skill), but a file is re-read only when its mtime or size
// changed, so new and edited skills show up without re-reading unchanged ones.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "./paths.ts";
import { firstProseLine, parseSkillFile } from "./skill-file.ts";
import { readOptionalText } from "./text-files.ts";
import { clipText } from "./text-limits.ts";

export interface Skill {
  name: string;
  description: string;
  /** absolute path of SKILL.md */
  file: string;
  /** the full file text */
  text: string;
}

/** Largest skill text given to the model; longer skills are cut with a note. */
export const MAX_SKILL_CHARS = 64000;

/** A skill's instructions as the model reads them: what the skill tool answers. */
export function skillText(skill: Skill): string {
  const body = clipText(
    skill.text,
    MAX_SKILL_CHARS,
    (total) => `[skill cut: ${total} characters, only the first ${MAX_SKILL_CHARS} are shown]`,
  );
  return `Skill "${skill.name}" (folder ${dirname(skill.file)}; paths in it are relative to that folder)\n\n${body}`;
}

/** The message `/NAME args` sends: the skill's instructions, then the arguments after a blank line. */
export function expandSkill(skill: Skill, args: string): string {
  const all = args.trim();
  return all ? `${skillText(skill)}\n\n${all}` : skillText(skill);
}

/** Skill names are what the model types: one short line without path separators. */
const NAME_RE = /^[^\s/\\][^/\\\n]{0,63}$/;

interface CacheEntry {
  mtimeMs: number;
  size: number;
  skill: Skill | undefined;
}

export class SkillCatalog {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly log: (m: string) => void = () => {}) {}

  /** Every skill, sorted by name; workspace skills replace config_dir skills of the same name. */
  list(configDir: string, workspace: string): Skill[] {
    const byName = new Map<string, Skill>();
    for (const s of this.scanRoot(join(configDir, "skills"), undefined)) byName.set(s.name, s);
    for (const s of this.scanRoot(join(workspace, ".i", "skills"), workspace)) byName.set(s.name, s);
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** `confine`: skills must really live inside this directory (workspace skills may not link out). */
  private scanRoot(root: string, confine: string | undefined): Skill[] {
    let entries: string[];
    try {
      entries = readdirSync(root).sort();
    } catch {
      return [];
    }
    const realConfine = confine === undefined ? undefined : safeRealpath(confine);
    const out: Skill[] = [];
    for (const folder of entries) {
      if (folder.startsWith(".")) continue;
      const file = join(root, folder, "SKILL.md");
      let st: { mtimeMs: number; size: number; isFile(): boolean };
      try {
        st = statSync(file);
      } catch {
        continue;
      }
      if (!st.isFile()) continue;
      if (realConfine !== undefined) {
        const real = safeRealpath(file);
        if (real === undefined || !isInside(realConfine, real)) {
          this.log(`skills: skipping ${file}: it leads outside the workspace`);
          continue;
        }
      }
      const skill = this.load(file, folder, st);
      if (skill) out.push(skill);
    }
    return out;
  }

  private load(file: string, folder: string, st: { mtimeMs: number; size: number }): Skill | undefined {
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.skill;
    let skill: Skill | undefined;
    try {
      const text = readOptionalText(file);
      if (text !== undefined) {
        const header = parseSkillFile(text);
        const name = header.name ?? folder;
        if (NAME_RE.test(name)) {
          const description = header.description ?? firstProseLine(header.body) ?? "(no description)";
          skill = { name, description, file, text };
        } else {
          this.log(`skills: skipping ${file}: name "${name}" must be one short line without slashes`);
        }
      }
    } catch (err) {
      this.log(`skills: ${(err as Error).message}`);
    }
    this.cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, skill });
    return skill;
  }
}

function safeRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
