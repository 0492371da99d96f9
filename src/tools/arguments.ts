// The arguments of a tool call, whatever kind of tool: the model's raw JSON text parsed once, then checked
// against the tool's schema, with one wording for every mistake. Core tools declare a zod schema; module
// and run-time declared tools carry a JSON Schema, which is converted to zod once per declaration, so both
// are checked by the same validator and described by the same formatter.
import { z } from "zod";

export type ArgsCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** The raw arguments as one JSON value (empty text means `{}`), or the mistake worded for the model. */
export function parseArguments(call: { name: string; arguments: string }): ArgsCheck {
  try {
    return { ok: true, value: call.arguments.trim() === "" ? {} : JSON.parse(call.arguments) };
  } catch (err) {
    return {
      ok: false,
      error: `the arguments for ${call.name} are not valid JSON (${(err as Error).message}); send one JSON object`,
    };
  }
}

/** The one description of arguments that do not match a tool's schema: up to three issues, each named. */
export function describeArgsError(tool: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join(".") : "arguments";
    if (issue.code === "unrecognized_keys")
      return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    return `${where}: ${issue.message}`;
  });
  return `invalid arguments for ${tool}: ${parts.join("; ")}`;
}

/** `args` checked by `schema`: the parsed value (zod's output), or the mistake worded for the model. */
export function checkArguments(tool: string, schema: z.ZodType, args: unknown): ArgsCheck {
  const r = schema.safeParse(args);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: describeArgsError(tool, r.error) };
}

const converted = new WeakMap<object, z.ZodType | null>();

/**
 * The zod validator of a declared JSON Schema, converted once per schema object. Null when the schema uses
 * something the converter cannot express: such a tool's arguments go to it unchecked here, and the tool
 * (which owns the schema) remains the one that checks them.
 */
export function jsonSchemaValidator(schema: Record<string, unknown>): z.ZodType | null {
  let v = converted.get(schema);
  if (v === undefined) {
    try {
      v = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      v = null;
    }
    converted.set(schema, v);
  }
  return v;
}
