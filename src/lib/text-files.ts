// Reading optional text files (prompt templates, skills, project instructions, .gitignore): a missing file
// is normal, any other problem names the file so the user can fix it. They are files in the workspace or
// config_dir that anyone can replace with a FIFO or a device, so only regular files are read (a FIFO
// would stall the worker until its request deadline) and never more than a bound.
import { readRegularFile } from "./regular-file.ts";

/** Largest optional text file read at all; callers with their own, smaller bound say so. */
export const MAX_TEXT_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The file's text, or undefined when it does not exist. Anything but a regular file, or a file over
 * `maxBytes`, throws an Error naming the file and the fix.
 */
export function readOptionalText(path: string, maxBytes = MAX_TEXT_FILE_BYTES): string | undefined {
  return readRegularFile(path, maxBytes, "a text file read by i");
}

/**
 * A prompt template the user wrote, or undefined when the file does not exist. Over `max` characters is
 * the user's mistake and says so (one line naming the file).
 */
export function readBoundedText(path: string, max: number): string | undefined {
  // A character takes at most 4 bytes in UTF-8: a larger file cannot be within `max` characters.
  const text = readOptionalText(path, max * 4);
  if (text !== undefined && text.length > max) {
    throw new Error(`${path}: ${text.length} characters, over the ${max} limit; shorten the file`);
  }
  return text;
}

/** `{{workspace}}` replaced everywhere (the one placeholder prompt templates support). */
export function substituteWorkspace(text: string, workspace: string): string {
  return text.replaceAll("{{workspace}}", workspace);
}
