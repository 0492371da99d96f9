// Where a path a command writes or deletes really is, and whether that is a place the guard protects:
// the filesystem root, the home directory, the workspace root (or an ancestor), a repository's .git,
// shell startup files, ~/.ssh and credentials, and anything outside the workspace and the temp dir.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { GuardPlace } from "./types.ts";

export type Action = "delete" | "move" | "write" | "chmod" | "extract";

const VERB: Record<Action, string> = {
  delete: "deletes",
  move: "moves",
  write: "overwrites",
  chmod: "changes the permissions or owner of",
  extract: "extracts files into",
};

/** Paths a write to is always a question: startup files, ssh, credentials (relative to home). */
const SENSITIVE = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".config/fish",
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".docker/config.json",
  ".kube",
  ".gnupg",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".gitconfig",
  ".i",
];

/** Device files that take writes harmlessly. */
const HARMLESS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"]);

export function within(p: string, dir: string): boolean {
  if (p === dir) return true;
  const r = relative(dir, p);
  return r !== "" && !r.startsWith("..") && !isAbsolute(r);
}

/** The real path of `p`: its longest existing ancestor resolved (symlinks), the rest appended. */
export function realish(p: string, followLast: boolean): string {
  const abs = resolve(p);
  if (!followLast && abs !== sep) return join(realish(dirname(abs), true), basename(abs));
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail);
    } catch {
      const up = dirname(head);
      if (up === head) return abs;
      tail.unshift(basename(head));
      head = up;
    }
  }
}

/** `~`, `~/x` and a relative path made absolute against `cwd`. */
export function absolute(value: string, cwd: string, home: string): string {
  if (value === "~") return home;
  const abs = value.startsWith("~/") ? join(home, value.slice(2)) : resolve(cwd, value);
  // A trailing slash means the directory a symlink leads to, not the link.
  return value.endsWith("/") && abs !== sep ? `${abs}/` : abs;
}

/**
 * Why `action` on `target` (absolute) is destructive, or undefined when it is not. `recursive`: the whole
 * tree under it (rm -r, chmod -R); `everything`: a wildcard over all of a directory's entries (`rm *`).
 */
export function judgePath(
  target: string,
  action: Action,
  place: GuardPlace,
  opts: { recursive?: boolean; everything?: boolean } = {},
): string | undefined {
  if (action === "write" && (HARMLESS.has(target) || /^\/dev\/(fd|tcp|udp)\//.test(target))) return undefined;
  // rm and mv act on a symlink itself; writes, chmod and a trailing slash go through it.
  const p = realish(target, action !== "delete" && action !== "move" ? true : target.endsWith(sep));
  const verb = VERB[action];
  const { workspace, home } = place;
  const whole = action !== "chmod" || opts.recursive === true;
  if (opts.everything && p === workspace && action === "delete")
    return `${verb} everything in the workspace (${p})`;
  if (p === sep) return whole ? `${verb} the root of the filesystem` : undefined;
  if (action !== "write" && within(home, p) && whole) return `${verb} your home directory (${p})`;
  if (action !== "write" && within(workspace, p) && whole)
    return p === workspace
      ? `${verb} the workspace root itself (${p})`
      : `${verb} ${p}, which holds the workspace`;
  if (within(p, workspace)) {
    const rel = relative(workspace, p).split(sep);
    if (rel[0] === ".git" && action !== "chmod" && action !== "extract")
      return `${verb} the repository's .git directory (${p}), its whole history`;
    return undefined;
  }
  for (const s of SENSITIVE)
    if (within(p, join(home, s))) return `${verb} ${p}: a shell startup file, ssh key or credential`;
  if (place.temp.some((t) => within(p, t) && p !== t)) return undefined;
  return `${verb} ${p}, outside the workspace`;
}
