// Core safety check for file tools: a path from the model is resolved against the workspace and refused
// when it lands outside — lexically (`..`, absolute paths) or through a symlink anywhere along the way —
// unless the user allowed paths outside the workspace.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isInside } from "../lib/paths.ts";
import { ToolError } from "./tool-error.ts";
import type { ToolContext } from "./types.ts";

export { isInside };

const MAX_LINK_HOPS = 40;

/**
 * The real path `p` refers to, following symlinks — also for paths that do not exist yet: the nearest
 * existing ancestor is resolved and the missing tail appended. A dangling symlink is followed to where
 * its target would be created, because writing through it would create that target.
 */
export function realpathLoose(p: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw new ToolError(`too many levels of symbolic links at ${p}`);
  try {
    return realpathSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
  }
  let isLink = false;
  try {
    isLink = lstatSync(p).isSymbolicLink();
  } catch {}
  if (isLink) return realpathLoose(resolve(dirname(p), readlinkSync(p)), hops + 1);
  const parent = dirname(p);
  if (parent === p) return p;
  return join(realpathLoose(parent, hops), basename(p));
}

/**
 * Resolve `p` (relative to the workspace, or absolute) to the real absolute path the tool should use.
 * Throws a ToolError with a clear message when the path escapes the workspace and `allowOutside` is off.
 */
export function resolveInWorkspace(workspace: string, p: string, allowOutside = false): string {
  if (p.trim() === "") throw new ToolError("path is empty; give a file path relative to the workspace");
  if (p.includes("\0")) throw new ToolError("path contains a NUL byte");
  const root = realpathLoose(resolve(workspace));
  const abs = resolve(root, p);
  if (!allowOutside && !isInside(root, abs)) {
    throw new ToolError(
      `path "${p}" resolves to ${abs}, outside the workspace ${root}; file tools only work inside the workspace unless the user allows paths outside it`,
    );
  }
  const real = realpathLoose(abs);
  if (!allowOutside && !isInside(root, real)) {
    throw new ToolError(
      `path "${p}" leads outside the workspace through a symbolic link (to ${real}); file tools only work inside the workspace ${root} unless the user allows paths outside it`,
    );
  }
  return real;
}

/**
 * The file a tool call names (resolveInWorkspace with the call's context), how to name it in messages
 * to the model (relative inside the workspace, else absolute), and the real workspace the opened file
 * must still be in (`confine`; undefined when the user allowed paths outside).
 */
export function toolPath(ctx: ToolContext, p: string): { real: string; shown: string; confine?: string } {
  const real = resolveInWorkspace(ctx.workspace, p, ctx.allowOutside);
  const root = realpathLoose(resolve(ctx.workspace));
  const shown = isInside(root, real) ? relative(root, real) || "." : real;
  return ctx.allowOutside ? { real, shown } : { real, shown, confine: root };
}
