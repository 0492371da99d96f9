// Removing a temporary directory of our own must never change how `i` ends: a failure here (Wine 8.0
// cannot do the recursive removal Bun asks Windows for; a virus scanner holding a file) leaves the exit
// code to the command and is one line on stderr, never an exception escaping from a `finally` or an exit
// handler (which a compiled binary reports with a line of its minified source).
import { readdirSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** Each entry removed one by one, deepest first: plain file and directory deletions only. */
function removeByHand(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) removeByHand(p);
    else unlinkSync(p);
  }
  rmdirSync(dir);
}

/** Remove `dir` and what it holds; on failure, say so once (with the path to remove by hand) and go on. */
export function removeTempDir(
  dir: string,
  warn: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    return;
  } catch {}
  try {
    removeByHand(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    warn(
      `i: warning: could not remove the temporary directory ${dir} (${code ?? (err as Error).message}); remove it by hand`,
    );
  }
}
