// Files in config_dir that a built-in module reads for itself (compact.json and its prompt, web.json).
// Shared so the worker and the core read them the same way: the worker when it runs, the core before a
// session starts (a mistake is then one line at start, not a worker dying mid-run) and `i doctor`.
import { dirname, join, resolve } from "node:path";
import { CompactFile, MAX_PROMPT_CHARS, WebFile } from "../contract/config.ts";
import { errorMessage, UserError } from "../contract/errors.ts";
import { parseWith, readConfigJson } from "./json-file.ts";
import { readRegularFile } from "./regular-file.ts";

/** compact.json plus, when it names a prompt, a check that the prompt file exists and is ≤ 32000 chars. */
export function loadCompactFile(dir: string): CompactFile {
  const file = join(dir, "compact.json");
  const compact = parseWith(file, CompactFile, readConfigJson(file) ?? {});
  if (compact.prompt !== undefined) readCompactPrompt(file, compact.prompt);
  return compact;
}

/** The text of a compact.json prompt, resolved relative to that file; only a regular file is read. */
export function readCompactPrompt(compactFile: string, prompt: string): string {
  const path = resolve(dirname(compactFile), prompt);
  // A UTF-8 character is at most 4 bytes: anything larger cannot be within the character limit.
  let text: string | undefined;
  try {
    text = readRegularFile(path, MAX_PROMPT_CHARS * 4, "a compact prompt");
  } catch (err) {
    throw new UserError(`${compactFile}: field prompt: ${errorMessage(err)}`);
  }
  if (text === undefined) {
    throw new UserError(
      `${compactFile}: field prompt: cannot read "${path}"; create it or fix the path (relative to compact.json)`,
    );
  }
  if (text.length > MAX_PROMPT_CHARS) {
    throw new UserError(
      `${compactFile}: field prompt: "${path}" has ${text.length} characters, over the ${MAX_PROMPT_CHARS} limit; shorten it`,
    );
  }
  return text;
}

/** web.json, the built-in web module's settings. */
export function loadWebFile(dir: string): WebFile {
  const file = join(dir, "web.json");
  return parseWith(file, WebFile, readConfigJson(file) ?? {});
}
