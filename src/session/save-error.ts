// A checkpoint the disk refuses (full, over quota, read-only) fails the turn with one line that says
// what happened and that nothing saved before is lost: the log is cut back to its last whole checkpoint
// (events-log.ts), so the session opens with every message up to there, and the next turn saves again
// once there is room.
import { UserError } from "../contract/errors.ts";

const REASONS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
};

/** `err` as the one line a user reads when the disk is the cause; any other error unchanged. */
export function saveError(err: unknown, id: string, dir: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why = code ? REASONS[code] : undefined;
  if (!why) return err;
  return new UserError(
    `session ${id} could not be saved in ${dir}: ${why} (${code}); the session keeps every message up to its last saved step — free some space and send again, or resume later with i -r ${id}`,
    1,
  );
}
