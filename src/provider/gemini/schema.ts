// Tool input schemas (JSON Schema) adapted to the subset Gemini's functionDeclarations accept (an
// OpenAPI 3.0 Schema): local $refs inlined, `type: [T, "null"]` as `nullable`, `const` as a one-value
// enum, oneOf as anyOf, non-string enums dropped, and keys Gemini rejects (additionalProperties, $schema,
// patternProperties, …) left out. A tool without parameters sends none.

const KEEP = new Set([
  "type",
  "format",
  "description",
  "title",
  "nullable",
  "enum",
  "required",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "default",
  "propertyOrdering",
]);
const MAX_DEPTH = 24;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function resolveRef(ref: string, root: Json): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const seg of ref.slice(2).split("/"))
    at = isObject(at) ? at[seg.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return isObject(at) ? at : undefined;
}

function adapt(schema: Json, root: Json, depth: number): Json {
  if (depth > MAX_DEPTH) return { type: "object" };
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema.$ref, root);
    return target ? adapt({ ...target, ...without(schema, "$ref") }, root, depth + 1) : { type: "object" };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) if (KEEP.has(k)) out[k] = v;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== "null");
    if (types.length < schema.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
    }
  }
  if ("const" in schema) out.enum = [schema.const];
  if (Array.isArray(out.enum)) {
    if (out.enum.every((e) => typeof e === "string")) {
      if (out.type === undefined) out.type = "string";
    } else delete out.enum;
  }
  if (out.type === "string" && Array.isArray(out.enum)) out.format = "enum";
  else if (out.format === "enum") delete out.format;
  const alts = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(alts)) {
    const kept = alts.filter(isObject).filter((a) => a.type !== "null");
    if (kept.length < alts.length) out.nullable = true;
    if (kept.length === 1 && kept[0]) Object.assign(out, adapt(kept[0], root, depth + 1));
    else if (kept.length > 1) out.anyOf = kept.map((a) => adapt(a, root, depth + 1));
  }
  if (isObject(schema.properties)) {
    const props: Json = {};
    for (const [k, v] of Object.entries(schema.properties))
      if (isObject(v)) props[k] = adapt(v, root, depth + 1);
    if (Object.keys(props).length > 0) out.properties = props;
    if (Array.isArray(out.required))
      out.required = out.required.filter((r) => typeof r === "string" && r in props);
    if (out.type === undefined) out.type = "object";
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (isObject(schema.items)) out.items = adapt(schema.items, root, depth + 1);
  else if (out.type === "array") out.items = { type: "string" };
  return out;
}

function without(o: Json, key: string): Json {
  const { [key]: _, ...rest } = o;
  return rest;
}

/** The `parameters` of a function declaration for `schema`, or undefined for a tool that takes none. */
export function geminiParameters(schema: unknown): Json | undefined {
  if (!isObject(schema)) return undefined;
  const out = adapt(schema, schema, 0);
  if (out.type === "object" && out.properties === undefined) return undefined;
  return out;
}
