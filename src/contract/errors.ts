import type { z } from "zod";

// A user mistake is reported as one clear line and a non-zero exit, never a stack trace.

/** An error caused by the user's input (flag, config file, binding). Exit code 2 by default. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}

/** The message of anything thrown (a non-Error value is shown as a string). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Where a zod issue sits, as a person reads it: `a.b[2].c`, or `(top level)`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(top level)";
}

/**
 * The project's one description of a failed parse: `<subject>: field <path>: <what was expected>` for the
 * first issue, or `<subject>: unknown key "k" in <path>; <fix>`. Every config file, hook reply, tool call
 * and history check words its errors through here, so a user sees one phrasing everywhere.
 */
export function describeIssue(
  subject: string,
  error: z.ZodError,
  hint?: (issue: z.core.$ZodIssue) => string | undefined,
): string {
  const issue = error.issues[0];
  if (!issue) return `${subject}: invalid`;
  const where = issuePath(issue.path);
  const extra = hint?.(issue);
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => `"${k}"`).join(", ");
    return `${subject}: unknown key ${keys} in ${where}; ${extra ?? "remove it (unknown keys are errors)"}`;
  }
  // zod words a missing field as "expected number, received undefined": say it is missing.
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined") && issue.path.length > 0)
    return `${subject}: field ${where} is missing; ${extra ?? `add it (a ${issue.expected})`}`;
  return `${subject}: field ${where}: ${issue.message}${extra ? `; ${extra}` : ""}`;
}

/** How a hook's data is named in messages: `module "compact", hook "compact_plan" reply`. */
export function hookSubject(module: string, hook: string, side: "request" | "reply"): string {
  return `module "${module}", hook "${hook}" ${side}`;
}
