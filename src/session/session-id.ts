// Session ids sort by creation time (a UTC timestamp prefix) and stay unique (a random suffix).
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/** What open() accepts as an id or id prefix: a plain directory name, nothing that could walk paths. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "").replace("Z", "");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

/** A new session's directory under `dataDir` (made private), named by a fresh id; returns the id. */
export function makeSessionDir(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let id = newSessionId();
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(join(dataDir, id), { mode: 0o700 });
      return id;
    } catch (err) {
      // A clash of the random suffix within one millisecond: draw again, a bounded number of times.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 20) throw err;
      id = newSessionId();
    }
  }
}
