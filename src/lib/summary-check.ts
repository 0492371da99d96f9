// A history summary (HistorySummary in protocol.ts) checked by hand: it holds three numbers or strings per
// message of the history, sent on every model request, and zod checks each element one by one (1.6 ms
// for a 3,000-turn session here, the same again at every turn). The rules are the schema's; a summary that
// fails here is handed to the schema, which words the reason.
import type { HistorySummary } from "../contract/protocol.ts";
import { isRecord } from "./is-record.ts";

const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

function every(v: unknown, ok: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!ok(v[i])) return false;
  return true;
}

/** True when `v` certainly matches the HistorySummary schema; false means "ask the schema". */
export function isHistorySummary(v: unknown): v is HistorySummary {
  if (!isRecord(v) || !isCount(v.count)) return false;
  if (!every(v.roles, (x) => typeof x === "string")) return false;
  if (!every(v.tokens, (x) => typeof x === "number" && x >= 0 && Number.isFinite(x))) return false;
  if (!every(v.images, isCount)) return false;
  const e = v.estimator;
  if (!isRecord(e) || typeof e.id !== "string") return false;
  if (typeof e.version !== "string" && !(typeof e.version === "number" && Number.isFinite(e.version)))
    return false;
  const last = v.last;
  return last === undefined || (isRecord(last) && typeof last.role === "string");
}
