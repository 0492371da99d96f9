// The containment rule shared by the core's file tools and every worker that reads workspace files.
import { isAbsolute, relative, sep } from "node:path";

/** True when `p` is `root` or below it (both absolute and normalised; no symlinks are followed). */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
