// Reading optional text files (prompt templates, skills, project instructions): a missing file is normal,
// any other problem names the file so the user can fix it.
import { readFileSync } from "node:fs";

/** The file's text, or undefined when it does not exist. Other failures throw an Error naming the file. */
export function readOptionalText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new Error(`${path}: cannot read: ${(err as Error).message}`);
  }
}

/** `{{workspace}}` replaced everywhere (the one placeholder prompt templates support). */
export function substituteWorkspace(text: string, workspace: string): string {
  return text.replaceAll("{{workspace}}", workspace);
}
