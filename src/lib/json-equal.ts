// Structural equality of JSON values, without serialising: the commit check compares the untouched
// recent suffix of a candidate with the history it came from, which can be megabytes.
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    if (!(k in bo) || !jsonEqual(ao[k], bo[k])) return false;
    n++;
  }
  for (const k in bo) if (bo[k] !== undefined) n--;
  return n === 0;
}
