// The guard's git states: /redo after the /undo of an allowed `git reset --hard` puts the command's result
// back (HEAD, branch tips, the index, the files), a second /undo takes it away again; and the refs that
// keep the states are bounded (those whose record is gone are let go, then all but the newest).
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CHECKPOINT_DEFAULTS } from "../../src/contract/checkpoints.ts";
import type { History } from "../../src/contract/history.ts";
import { Checkpointer } from "../../src/safety/checkpointer.ts";
import { recordGitState } from "../../src/safety/git-state.ts";
import { pruneGuardRefs } from "../../src/safety/git-state-prune.ts";
import { redo, undo } from "../../src/safety/rewind.ts";
import { Session } from "../../src/session/session.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { git, victimRepo } from "../helpers/git-victim.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const read = (ws: string, p: string) => readFileSync(join(ws, p), "utf8");

/** A repository with two commits and uncommitted work (staged and unstaged). */
function repo(): string {
  const ws = tempDir("i-gs-ws-");
  dirs.push(ws);
  victimRepo(ws);
  return ws;
}

/** What git says the repository is: HEAD, the branch, the index, the files and their status. */
function state(ws: string) {
  return {
    head: git(ws, "rev-parse", "HEAD"),
    main: git(ws, "rev-parse", "refs/heads/main"),
    index: git(ws, "write-tree"),
    status: git(ws, "status", "--porcelain"),
    a: read(ws, "a.txt"),
    b: read(ws, "b.txt"),
  };
}

for (const enabled of [true, false]) {
  test(`/redo after /undo of an allowed git reset --hard puts its result back (checkpoints ${enabled ? "on" : "off"})`, async () => {
    const ws = repo();
    const data = tempDir("i-gs-data-");
    dirs.push(data);
    const session = Session.create({ dataDir: data, workspace: ws });
    const cp = new Checkpointer({
      session,
      workspace: ws,
      policy: { ...CHECKPOINT_DEFAULTS, enabled },
      warn: () => {},
    });
    const turnTs = new Date(Date.now() - 1000).toISOString();
    let history: History = [
      { role: "system", content: "s" },
      { role: "user", content: "tidy", meta: { ts: turnTs } },
    ];
    session.checkpoint(history);
    cp.beforeChange(turnTs);
    const before = state(ws);
    // The guard's order: the state recorded, then the command the user allowed.
    recordGitState(session.dir, session.id, ws, "git reset --hard HEAD~1");
    git(ws, "reset", "-q", "--hard", "HEAD~1");
    const after = state(ws);
    expect(after.head).not.toBe(before.head);
    history = [...history, { role: "assistant", content: "done" }];
    session.checkpoint(history);
    cp.afterTurn();

    const deps = { session, checkpoints: cp, workspace: ws, confirm: async () => true };
    const u = await undo({ ...deps, history });
    expect(u.done).toBe(true);
    expect(state(ws)).toEqual(before);

    const r = await redo({ ...deps, history: u.history });
    expect(r.done).toBe(true);
    expect(r.lines.join("\n")).toContain("before the undo of `git reset --hard HEAD~1`");
    expect(state(ws)).toEqual(after);

    const again = await undo({ ...deps, history: r.history });
    expect(again.done).toBe(true);
    expect(state(ws)).toEqual(before);
    expect(git(ws, "stash", "list")).toBe("");
  }, 30_000);
}

test("the kept states: a deleted session's refs are let go, and a repository keeps only the newest", () => {
  const ws = repo();
  const data = tempDir("i-gs-data-");
  dirs.push(data);
  const gone = Session.create({ dataDir: data, workspace: ws });
  const kept = Session.create({ dataDir: data, workspace: ws });
  const refs = () =>
    git(ws, "for-each-ref", "--format=%(refname)", "refs/i-guard").split("\n").filter(Boolean);
  recordGitState(gone.dir, gone.id, ws, "git clean -fd");
  expect(refs()).toEqual([`refs/i-guard/${gone.id}/1`]);
  rmSync(gone.dir, { recursive: true, force: true });
  // The next recording in the repository lets the deleted session's state go.
  recordGitState(kept.dir, kept.id, ws, "git clean -fd");
  expect(refs()).toEqual([`refs/i-guard/${kept.id}/1`]);
  recordGitState(kept.dir, kept.id, ws, "git branch -D x");
  recordGitState(kept.dir, kept.id, ws, "git stash drop");
  expect(refs()).toHaveLength(3);
  expect(pruneGuardRefs(ws, 2)).toBe(1);
  expect(refs()).toEqual([`refs/i-guard/${kept.id}/2`, `refs/i-guard/${kept.id}/3`]);
});
