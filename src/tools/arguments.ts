// The arguments of a tool call, whatever kind of tool: the model's raw JSON text parsed once, read
// forgivingly, then checked against the tool's schema, with one wording for every mistake. Core tools
// declare a zod schema; module and run-time declared tools carry a JSON Schema, which is converted to zod
// once per declaration, so both are checked by the same validator and described by the same formatter.
//
// Forgiving, because a model trained on other agents' tools sends their argument names: a failed call
// costs a whole round trip, and the intent is plain. Only for tool calls — config files stay strict.
import { z } from "zod";

/** `notes`: what the forgiving reading did that the model should know, for the call's result. */
export type ArgsCheck = { ok: true; value: unknown; notes?: string[] } | { ok: false; error: string };

/** Other agents' names for our arguments, read as ours when the tool has ours and the call does not. */
export const ARGUMENT_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  filePath: "path",
  old_str: "old_text",
  oldString: "old_text",
  new_str: "new_text",
  newString: "new_text",
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `args` read against the declared `schema`: an alias renamed to the argument it stands for, and (when the
 * schema admits no other properties) an unknown argument dropped and named in a note, instead of failing
 * the call. Anything that is not an object, or a schema without properties, is left to the check.
 */
export function forgiveArguments(
  tool: string,
  schema: Record<string, unknown>,
  args: unknown,
): { value: unknown; notes: string[] } {
  const props = schema.properties;
  if (!isPlainObject(args) || !isPlainObject(props)) return { value: args, notes: [] };
  const closed = schema.additionalProperties === false;
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, v] of Object.entries(args)) {
    const alias = ARGUMENT_ALIASES[key];
    if (key in props) out[key] = v;
    else if (alias !== undefined && alias in props && !(alias in args)) out[alias] = v;
    else if (closed) dropped.push(key);
    else out[key] = v;
  }
  if (dropped.length === 0) return { value: out, notes: [] };
  const s = dropped.length > 1 ? "s" : "";
  return {
    value: out,
    notes: [
      `ignored unknown argument${s} ${dropped.join(", ")} (${tool} takes ${Object.keys(props).join(", ")})`,
    ],
  };
}

/** The result of a call with the forgiving reading's notes after it, one line each. */
export function withNotes<T extends { content: string | unknown[] }>(result: T, notes: readonly string[]): T {
  if (notes.length === 0) return result;
  const text = notes.map((n) => `[${n}]`).join("\n");
  if (typeof result.content === "string")
    return { ...result, content: result.content === "" ? text : `${result.content}\n${text}` };
  return { ...result, content: [...result.content, { type: "text", text }] };
}

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

/**
 * `args` checked by `schema` after the forgiving reading (`notes` carries what it did): the value to run
 * with (zod's output when `useOutput`, else the arguments as read), or the mistake worded for the model,
 * the notes after it.
 */
export function checkArguments(
  tool: string,
  schema: z.ZodType | null,
  args: unknown,
  notes: readonly string[],
  useOutput: boolean,
): ArgsCheck {
  const r = schema?.safeParse(args);
  if (r && !r.success) {
    const error = describeArgsError(tool, r.error);
    return { ok: false, error: notes.length ? `${error}; ${notes.join("; ")}` : error };
  }
  const value = r && useOutput ? r.data : args;
  return notes.length ? { ok: true, value, notes: [...notes] } : { ok: true, value };
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
