// `i -p --trajectory FILE`: the run's session as an ATIF trajectory, written atomically when the run ends
// — also when it ends by SIGTERM or Ctrl-C (a job timeout, a harness stopping it), since both cancel the
// turn and the run then goes through its normal end. A trajectory that cannot be written is one line.
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { errorMessage, UserError } from "../contract/errors.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";

/** The file's full path; a usage error now, before anything runs, when its folder is not there. */
export function trajectoryPath(file: string): string {
  const path = resolve(file);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UserError(
      `--trajectory ${file}: the folder ${dir} does not exist; create it or give another path`,
    );
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UserError(
      `--trajectory ${file}: that is a folder; give a file name, e.g. ${file}/trajectory.json`,
    );
  return path;
}

/** Write it; an error message when that failed (the run's own outcome stands). The exporter loads here. */
export async function writeTrajectory(
  path: string,
  sessionId: string,
  dataDir: string,
  version: string,
): Promise<string | undefined> {
  try {
    const { sessionTrajectory, trajectoryText } = await import("../safety/export-atif.ts");
    writeFileAtomic(path, trajectoryText(sessionTrajectory(sessionId, { dataDir, version })));
    return undefined;
  } catch (err) {
    return `--trajectory ${path}: not written: ${errorMessage(err)}`;
  }
}
