// The place the guard's corpora are judged in: a temp root holding the workspace (a repository with one
// commit and uncommitted work in tracked.txt), a home with the usual secrets' folders, a temp dir and the
// victim directory `{V}` the destructive commands aim at.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GuardPlace } from "../../../src/tools/guard/classify.ts";
import { git } from "../../helpers/git-victim.ts";

export function guardPlace(prefix: string): { root: string; place: GuardPlace } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const ws = join(root, "ws");
  for (const d of ["ws/src", "home/.ssh", "home/.aws", "home/project-b", "tmp", "victim/keep"])
    mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(ws, "tracked.txt"), "committed\n");
  git(ws, "init", "-q", "-b", "main");
  git(ws, "add", "-A");
  git(ws, "commit", "-qm", "init");
  writeFileSync(join(ws, "tracked.txt"), "uncommitted work\n");
  return { root, place: { workspace: ws, cwd: ws, home: join(root, "home"), temp: [join(root, "tmp")] } };
}

/** A corpus command with the victim's paths filled in. */
export const fillIn = (root: string, c: string): string =>
  c.replaceAll("{V_REL}", join(root, "victim").slice(1)).replaceAll("{V}", join(root, "victim"));
