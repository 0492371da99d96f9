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

/**
 * A prompt template the user wrote, or undefined when the file does not exist. Over `max` characters is
 * the user's mistake and says so (one line naming the file).
 */
export function readBoundedText(path: string, max: number): string | undefined {
  const text = readOptionalText(path);
  if (text !== undefined && text.length > max) {
    throw new Error(`${path}: ${text.length} characters, over the ${max} limit; shorten the file`);
  }
  return text;
}

/** `{{workspace}}` replaced everywhere (the one placeholder prompt templates support). */
export function substituteWorkspace(text: string, workspace: string): string {
  return text.replaceAll("{{workspace}}", workspace);
}
