// The one test for "a JSON object": not null and not an array. Hook data, replies, histories and
// summaries are all checked with it.
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
