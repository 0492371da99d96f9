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
  return `${subject}: field ${where}: ${plainMessage(issue)}${extra ? `; ${extra}` : ""}`;
}

/** A bound of a too_small/too_big issue in words: "at least 100", "less than 1", "at least 1 item". */
function bound(
  issue: { origin: string; inclusive?: boolean },
  n: number | bigint,
  [incl, excl]: [string, string],
): string {
  const unit =
    issue.origin === "string"
      ? " character"
      : issue.origin === "array" || issue.origin === "set"
        ? " item"
        : "";
  return `${issue.inclusive === false ? excl : incl} ${n}${unit}${unit && Number(n) !== 1 ? "s" : ""}`;
}

/** A literal as it would be written in the JSON file (JSON.stringify cannot write a bigint). */
const shown = (v: unknown) => (typeof v === "bigint" ? String(v) : JSON.stringify(v));

/**
 * zod's own wording for the common issues reads like a type checker ("Too small: expected number to be
 * >=100", "Invalid option: expected one of "a"|"b""); a person editing a file is told what the value
 * must be. Other issues keep zod's message (a refine's message is ours already).
 */
function plainMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "too_small":
      return issue.minimum === 1 && (issue.origin === "string" || issue.origin === "array")
        ? "must not be empty"
        : `must be ${bound(issue, issue.minimum, ["at least", "more than"])}`;
    case "too_big":
      return `must be ${bound(issue, issue.maximum, ["at most", "less than"])}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${shown(issue.values[0])}`
        : `must be one of ${issue.values.map(shown).join(", ")}`;
    case "invalid_type":
      return issue.message.replace(/^Invalid input: /, "");
    default:
      return issue.message;
  }
}

/** How a hook's data is named in messages: `module "compact", hook "compact_plan" reply`. */
export function hookSubject(module: string, hook: string, side: "request" | "reply"): string {
  return `module "${module}", hook "${hook}" ${side}`;
}
