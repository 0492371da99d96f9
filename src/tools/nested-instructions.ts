// AGENTS.md files below the workspace (CLAUDE.md where a directory has none): when the model first reads
// a file under such a directory, that directory's instructions come with the read result, once per
// session, so the rules of a package reach the model when it starts working there and not before. The
// workspace's own file is in the system prompt already (the prompts module), so it is not repeated.
import { dirname, join, relative, sep } from "node:path";
import { isInside } from "../lib/paths.ts";
import { readOptionalText } from "../lib/text-files.ts";

const NAMES = ["AGENTS.md", "CLAUDE.md"];
/** Largest nested file shown; longer ones are cut with a note, like the workspace's own. */
export const MAX_NESTED_CHARS = 16000;

export class NestedInstructions {
  /** directories already looked at (with or without a file) */
  private readonly seen = new Set<string>();

  constructor(private readonly workspace: string) {}

  /** Sections for the not yet delivered instruction files that apply to `file` (a real path), outermost first. */
  forFile(file: string): string[] {
    if (!isInside(this.workspace, file)) return [];
    const dirs: string[] = [];
    for (let dir = dirname(file); dir !== this.workspace && isInside(this.workspace, dir); dir = dirname(dir))
      dirs.unshift(dir);
    const out: string[] = [];
    for (const dir of dirs) {
      if (this.seen.has(dir)) continue;
      this.seen.add(dir);
      const found = this.read(dir);
      if (found) out.push(found);
    }
    return out;
  }

  private read(dir: string): string | undefined {
    for (const name of NAMES) {
      let text: string | undefined;
      try {
        text = readOptionalText(join(dir, name), MAX_NESTED_CHARS * 4);
      } catch {
        continue; // not a regular file, or far too large: the read itself is what was asked for
      }
      if (text === undefined || text.trim() === "") continue;
      const rel = relative(this.workspace, dir).split(sep).join("/");
      const body =
        text.length > MAX_NESTED_CHARS
          ? `${text.slice(0, MAX_NESTED_CHARS)}\n[${rel}/${name} cut: only the first ${MAX_NESTED_CHARS} characters are shown]`
          : text.trim();
      return [
        `[The project file ${rel}/${name} applies to the files under ${rel}/ and takes precedence there over the instructions above it; follow it where it does not conflict with the user's requests:]`,
        `<project-instructions file="${rel}/${name}">`,
        body,
        "</project-instructions>",
      ].join("\n");
    }
    return undefined;
  }
}
