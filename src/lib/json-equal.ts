// Structural equality of JSON values, without serialising: the commit check compares the untouched
// recent suffix of a candidate with the history it came from, which can be megabytes.
// `sameNumber` decides two numbers that are not identical (by default: never the same); the worker host's
// field check passes one that forgives a last-place difference of a float read back by another language.
export function jsonEqual(
  a: unknown,
  b: unknown,
  sameNumber: (x: number, y: number) => boolean = () => false,
): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return sameNumber(a, b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i], sameNumber)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    if (!(k in bo) || !jsonEqual(ao[k], bo[k], sameNumber)) return false;
    n++;
  }
  for (const k in bo) if (bo[k] !== undefined) n--;
  return n === 0;
}
