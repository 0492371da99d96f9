// An allowed `git reset --hard` / `git checkout -- .` over uncommitted work, then a rewind of that turn
// (`i sessions --rewind`, the same rewind /undo runs): the working tree, the index and the branch tips
// are back, and the user's stash and reflog were never touched.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../../agent/rig.ts";
import { runCliAsync, savedSessionIds } from "../../helpers/cli.ts";
import { git, victimRepo } from "../../helpers/git-victim.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

for (const command of ["git reset --hard HEAD~1", "git checkout -- ."]) {
  test(`${command} over uncommitted work, allowed, is undone by a rewind`, async () => {
    rig = await makeRig({
      script: [{ tool_calls: [{ name: "bash", arguments: { command } }] }, { text: "done" }],
    });
    const ws = rig.workspace;
    victimRepo(ws);
    const head = git(ws, "rev-parse", "HEAD");
    const index = git(ws, "write-tree");
    const reflog = git(ws, "reflog", "--format=%H %gs");
    const status = git(ws, "status", "--porcelain");
    const r = await rig.run(["-p", "tidy", "--approve", "all", "--allow-destructive"]);
    expect(r.code).toBe(0);
    // It ran: the work is gone.
    expect(readFileSync(join(ws, "a.txt"), "utf8")).not.toBe("afternoon of work\n");
    const id = savedSessionIds(rig.dataDir)[0] ?? "";
    const back = await runCliAsync(["sessions", "--rewind", id, "--to", "1", "--code", "--yes"], rig.env);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain("git state restored");
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("afternoon of work\n");
    expect(readFileSync(join(ws, "b.txt"), "utf8")).toBe("staged bee\n");
    expect(git(ws, "rev-parse", "HEAD")).toBe(head);
    expect(git(ws, "write-tree")).toBe(index);
    expect(git(ws, "status", "--porcelain")).toBe(status);
    expect(git(ws, "stash", "list")).toBe("");
    // The reflog has the command's own entry and the undo's, never a rewrite of the old ones.
    expect(git(ws, "reflog", "--format=%H %gs")).toEndWith(reflog);
  }, 30_000);
}
