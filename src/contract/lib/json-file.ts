// Reading a user's JSON file and turning any problem into one clear line: file, field, what is wrong, fix.
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { describeIssue, UserError } from "../errors.ts";

/**
 * The parsed JSON of `file`, or undefined when it does not exist. Malformed JSON is a UserError ending
 * with `fix`, what the user should do about it.
 */
export function readJson(file: string, fix = "fix the syntax or delete the file"): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UserError(`${file}: cannot read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: malformed JSON (${(err as Error).message}); ${fix}`);
  }
}

/** Validate parsed JSON against a schema, throwing a UserError (exit 2) with one clear line. */
export function parseWith<S extends z.ZodType>(
  file: string,
  schema: S,
  value: unknown,
  hint?: (issue: z.core.$ZodIssue) => string | undefined,
): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new UserError(describeIssue(file, r.error, hint));
  return r.data;
}
