// The keys a schema allows at a path of the parsed value, so an "unknown key" error can name the key the
// user probably meant. Walks zod's own definitions: objects, and the wrappers and containers around them
// (z.lazy among them: the contract makes its larger schemas only when first used).
import type { z } from "zod";

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  /** z.lazy: the schema it stands for, made on first use */
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Keys of the object schemas `schema` may be at `path` (an empty list when it cannot tell). */
export function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? (def.type === "lazy" ? def.getter?.() : undefined);
  if (inner) return knownKeys(inner, path);
  if (def.type === "union") return (def.options ?? []).flatMap((o) => knownKeys(o, path));
  if (path.length === 0) return def.type === "object" && def.shape ? Object.keys(def.shape) : [];
  const [head, ...rest] = path;
  if (def.type === "object" && def.shape) {
    const next = def.shape[String(head)];
    return next ? knownKeys(next, rest) : [];
  }
  if (def.type === "record" && def.valueType) return knownKeys(def.valueType, rest);
  if (def.type === "array" && def.element) return knownKeys(def.element, rest);
  return [];
}
