// One writer per session: two `i` processes checkpointing the same session would each overwrite the
// other's history.json. The lock is a file holding the owner's pid, created exclusively; a lock whose
// process is gone (a crash, kill -9) is stale and taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import { processAlive } from "./session-files.ts";

const LOCK_FILE = "lock";

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Take the session's lock or fail with one clear line; returns the release function. */
export function lockSession(dir: string, id: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        if (ownerOf(path) === process.pid) unlinkSync(path);
      };
      process.on("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = ownerOf(path);
      if (owner !== undefined && owner !== process.pid && processAlive(owner)) {
        throw new UserError(
          `session ${id} is in use by another i process (pid ${owner}); wait for it to finish, or start a new session`,
        );
      }
      // Stale (its process is gone) or unreadable: remove it and try again.
      try {
        unlinkSync(path);
      } catch {}
    }
  }
  throw new UserError(
    `session ${id}: could not take its lock file ${path}; remove it if no i process uses the session`,
  );
}
