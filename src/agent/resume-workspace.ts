// Which workspace a resumed session runs in: its own. Running its tools in whatever directory `i -r` was
// started from would let the session say one workspace while reading and writing another.
import { existsSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { Session } from "../session/session.ts";

export interface ResumedWorkspace {
  workspace: string;
  /** the session's workspace is not the directory `i` was started in: say so */
  notice?: string;
}

function realDir(p: string): string | undefined {
  try {
    return statSync(p).isDirectory() ? realpathSync(p) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The session's recorded workspace, which must still be a directory. An explicit --workspace must name
 * that same directory; without one, a different cwd is allowed and reported.
 */
export function resumedWorkspace(
  session: Session,
  flag: string | undefined,
  cwd = process.cwd(),
): ResumedWorkspace {
  const own = session.meta.workspace;
  const real = realDir(own);
  if (!real) {
    const why = existsSync(own) ? "is no longer a directory" : "no longer exists";
    throw new UserError(
      `session ${session.id}: its workspace ${own} ${why}; restore it, or start a new session with \`i\``,
    );
  }
  if (flag !== undefined) {
    const asked = realDir(resolve(flag));
    if (asked !== real) {
      throw new UserError(
        `--workspace: session ${session.id} belongs to workspace ${own}, not ${resolve(flag)}; leave out --workspace to resume it where it belongs`,
      );
    }
    return { workspace: real };
  }
  const here = realDir(cwd);
  if (here === real) return { workspace: real };
  return {
    workspace: real,
    notice: `resumed session ${session.id} of workspace ${real} (not the current directory ${cwd}): its tools run in ${real}`,
  };
}
