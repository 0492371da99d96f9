// Session ids sort by creation time (a UTC timestamp prefix) and stay unique (a random suffix).
import { randomBytes } from "node:crypto";

/** What open() accepts as an id or id prefix: a plain directory name, nothing that could walk paths. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "").replace("Z", "");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}
