// The containment rule shared by the core's file tools and every worker that reads workspace files.
import { readlinkSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

/** True when `p` is `root` or below it (both absolute and normalised; no symlinks are followed). */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Where an open descriptor really is (Linux: /proc/self/fd/N names the file it refers to, however it
 * was reached), or undefined where the platform cannot tell. A path check before opening can be raced by
 * a symlink swapped in between; this cannot.
 */
export function descriptorPath(fd: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Whether the open descriptor is inside `root` (a real path); true where the platform cannot tell. */
export function descriptorInside(fd: number, root: string): boolean {
  const where = descriptorPath(fd);
  return where === undefined || isInside(root, where);
}
