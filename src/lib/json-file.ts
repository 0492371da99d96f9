// Reading a user's JSON file and turning any problem into one clear line: file, field, what is wrong, fix.
import type { z } from "zod";
import { describeIssue, UserError } from "../contract/errors.ts";
import { findDuplicateKey } from "./duplicate-keys.ts";
import { closestWord } from "./edit-distance.ts";
import { knownKeys } from "./known-keys.ts";
import { readRegularFile } from "./regular-file.ts";

/** Config files are small; a bigger one is a mistake (or /dev/zero), refused before it costs memory. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

function parseText(file: string, text: string, fix: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: malformed JSON (${(err as Error).message}); ${fix}`);
  }
}

/**
 * The parsed JSON of `file`, or undefined when it does not exist. Only a regular file is read, at most
 * `maxBytes` of it. Malformed JSON is a UserError ending with `fix`, what the user should do about it.
 */
export function readJson(
  file: string,
  fix = "fix the syntax or delete the file",
  maxBytes = Number.MAX_SAFE_INTEGER,
): unknown {
  const text = readRegularFile(file, maxBytes);
  return text === undefined ? undefined : parseText(file, text, fix);
}

/**
 * A config_dir file (or a manifest): like readJson, capped at MAX_CONFIG_BYTES, and stricter than
 * JSON.parse: `null` is not an empty config and a key given twice is an error, not "last one wins".
 * `remedy` is the way out besides fixing the text: deleting a config file restores its defaults, but a
 * file without defaults (a manifest) has to be regenerated instead.
 */
export function readConfigJson(file: string, remedy = "delete the file"): unknown {
  const raw = readRegularFile(file, MAX_CONFIG_BYTES, "a config file");
  if (raw === undefined) return undefined;
  return parseConfigText(file, raw, remedy);
}

/** The checks of readConfigJson on text already read (a worker that must check the very bytes it uses). */
export function parseConfigText(file: string, raw: string, remedy = "delete the file"): unknown {
  // Editors on Windows (Notepad) save UTF-8 with a byte-order mark; it marks the encoding, it is no syntax.
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  if (text.trim() === "") throw new UserError(`${file}: is empty; write an object such as {} or ${remedy}`);
  const value = parseText(file, text, `fix the syntax or ${remedy}`);
  if (value === null) throw new UserError(`${file}: is null; write an object such as {} or ${remedy}`);
  // Every such file is one JSON object; zod would word anything else "field (top level): Invalid input".
  if (typeof value !== "object" || Array.isArray(value))
    throw new UserError(
      `${file}: is ${Array.isArray(value) ? "an array" : `a ${typeof value}`}, not an object; write an object such as {} or ${remedy}`,
    );
  const dup = findDuplicateKey(text);
  if (dup)
    throw new UserError(
      `${file}: duplicate key "${dup.key}" in ${dup.path}; keep one of them (JSON would silently use the last)`,
    );
  return value;
}

/**
 * A file is read once per run: its check takes zod's plain path. The default compiles a parser for each
 * object schema on its first use (`new Function`), which a check that runs once only pays for: at the
 * console's start that was milliseconds before the input line.
 */
const ONCE = { jitless: true } as const;

/** Validate parsed JSON against a schema, throwing a UserError (exit 2) with one clear line. */
export function parseWith<S extends z.ZodType>(
  file: string,
  schema: S,
  value: unknown,
  hint?: (issue: z.core.$ZodIssue) => string | undefined,
): z.infer<S> {
  const r = schema.safeParse(value, ONCE);
  if (!r.success) throw new UserError(describeIssue(file, r.error, (i) => hint?.(i) ?? typoHint(schema, i)));
  return r.data;
}

/** For a mistyped key ("modls"): the allowed key it is closest to. */
function typoHint(schema: z.ZodType, issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== "unrecognized_keys" || issue.keys.length !== 1) return undefined;
  const key = issue.keys[0] as string;
  const near = closestWord(key, knownKeys(schema, issue.path));
  return near ? `did you mean "${near}"? (unknown keys are errors)` : undefined;
}
