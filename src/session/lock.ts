// One writer per session: two `i` processes checkpointing the same session would each overwrite the
// other's history.json. The lock is a file holding the owner's pid. It appears whole (written to a private
// file, then hard-linked into place, which fails if a lock exists), so a reader never sees it empty.
//
// A lock whose process is gone (a crash, kill -9) is stale and taken over, atomically: of any number of
// processes that find the same stale lock, exactly one may replace it. Each first creates a claim file
// named after that very lock (its pid, inode and mtime) exclusively; only the creator of the claim
// renames its own lock over the stale one, after checking the stale one is still the one it claimed.
// Everybody else reads the new lock, sees a live owner and is refused with its pid.
import {
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import { saveError } from "./save-error.ts";
import { processAlive } from "./session-files.ts";

const LOCK_FILE = "lock";
const CLAIM_PREFIX = "lock.claim-";
const OWN_PREFIX = "lock.new-";
/**
 * How long a contender waits for another one's takeover to land: microseconds of work, but a loaded
 * machine may not schedule the taker for a while. Only a taker that died mid-takeover makes anyone wait
 * this long (then the error says which files to remove).
 */
const TAKEOVER_WAIT_MS = 10_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** A short synchronous pause: the lock is taken before anything else of the run starts. */
function sleepMs(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

interface Held {
  pid: number | undefined;
  /** identifies this very file: a lock replaced or re-created has another key */
  key: string;
}

function readLock(path: string): Held | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const st = statSync(path);
    const pid = Number.parseInt(readFileSync(fd, "utf8").trim(), 10);
    return {
      pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
      key: `${Number.isInteger(pid) ? pid : "x"}-${st.ino}-${Math.trunc(st.mtimeMs * 1000)}`,
    };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A private file holding our pid, to be linked or renamed into place whole. */
function writeOwnFile(dir: string): string {
  const path = join(dir, `${OWN_PREFIX}${process.pid}`);
  const fd = openSync(path, "w", 0o600);
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Create `path` exclusively from `own`; false when a lock exists. */
function linkInto(own: string, path: string): boolean {
  try {
    linkSync(own, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // A file system without hard links: an exclusive create, then the pid (readers retry an empty one).
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw err;
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e;
    }
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/**
 * Replace the stale lock `seen` with `own`; true when this process did. The claim is exclusive per stale
 * lock, so one process at most gets past it for any one stale file.
 */
function takeOver(dir: string, path: string, own: string, seen: Held): boolean {
  const claim = join(dir, `${CLAIM_PREFIX}${seen.key}`);
  try {
    closeSync(openSync(claim, "wx", 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  // Still the lock claimed (not one that replaced it since we read it)? Only the claim's holder can
  // replace this one, and its dead owner cannot remove it, so it stays the same until the rename.
  if (readLock(path)?.key !== seen.key) return false;
  renameSync(own, path);
  return true;
}

/** Claim files of locks long replaced, and private files of contenders that died: the owner's to remove. */
function removeClaims(dir: string): void {
  try {
    for (const name of readdirSync(dir)) {
      const pid = name.startsWith(OWN_PREFIX) ? Number(name.slice(OWN_PREFIX.length)) : undefined;
      if (name.startsWith(CLAIM_PREFIX) || (pid !== undefined && pid !== process.pid && !processAlive(pid)))
        tryUnlink(join(dir, name));
    }
  } catch {}
}

function inUse(id: string, pid: number): UserError {
  return new UserError(
    `session ${id} is in use by another i process (pid ${pid}); wait for it to finish, or start a new session`,
  );
}

/** Take the session's lock or fail with one clear line (exit 2); returns the release function. */
export function lockSession(dir: string, id: string): () => void {
  const path = join(dir, LOCK_FILE);
  let own: string;
  try {
    own = writeOwnFile(dir);
  } catch (err) {
    throw saveError(err, id, dir);
  }
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  try {
    for (let round = 0; Date.now() < deadline; round++) {
      if (linkInto(own, path)) return held(dir, path);
      const seen = readLock(path);
      if (seen === undefined) continue; // removed meanwhile: try again
      if (seen.pid === process.pid) return held(dir, path);
      if (seen.pid !== undefined && processAlive(seen.pid)) throw inUse(id, seen.pid);
      // Empty: being written on a file system without hard links. Otherwise stale: claim it; a claim lost
      // means another contender is replacing it right now, and the next round reads its pid.
      if (seen.pid === undefined && round < 3) sleepMs(5);
      else if (takeOver(dir, path, own, seen)) return held(dir, path);
      else sleepMs(1);
    }
  } finally {
    tryUnlink(own);
  }
  const owner = readLock(path)?.pid;
  if (owner !== undefined && processAlive(owner)) throw inUse(id, owner);
  throw new UserError(
    `session ${id}: could not take its lock file ${path}; if no i process uses the session, remove it and the lock.claim-* files beside it`,
  );
}

function held(dir: string, path: string): () => void {
  removeClaims(dir);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readLock(path)?.pid === process.pid) tryUnlink(path);
  };
  process.on("exit", release);
  return release;
}
