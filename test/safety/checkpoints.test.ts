// Workspace checkpoints against real files: what is recorded (git's view, links as links), the stat
// cache, the caps said once, the events logged, and restoring (undo, redo, rewind, hand changes).
import { afterEach, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CHECKPOINT_DEFAULTS, type CheckpointsPolicy } from "../../src/contract/checkpoints.ts";
import type { History } from "../../src/contract/history.ts";
import { Checkpointer } from "../../src/safety/checkpointer.ts";
import { redo, rewindTo, undo } from "../../src/safety/rewind.ts";
import { readTimeline, turnRows } from "../../src/safety/timeline.ts";
import { Session } from "../../src/session/session.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function setup(files: Record<string, string>, policy: Partial<CheckpointsPolicy> = {}) {
  const ws = tempDir("i-cp-ws-");
  const data = tempDir("i-cp-data-");
  dirs.push(ws, data);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(ws, p, ".."), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  const session = Session.create({ dataDir: data, workspace: ws });
  const warnings: string[] = [];
  const cp = new Checkpointer({
    session,
    workspace: ws,
    policy: { ...CHECKPOINT_DEFAULTS, ...policy },
    warn: (l) => warnings.push(l),
  });
  return { ws, data, session, cp, warnings };
}

const ts = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
function user(text: string, n: number): History[number] {
  return { role: "user", content: text, meta: { ts: ts(n) } };
}
function reply(text: string): History[number] {
  return { role: "assistant", content: text };
}
const read = (ws: string, p: string) => readFileSync(join(ws, p), "utf8");

test("records what git would track: .gitignore (nested too) and .git respected, links kept as links", () => {
  const { ws, cp } = setup({
    ".gitignore": "*.log\nbuild/\n",
    "src/a.ts": "a",
    "src/.gitignore": "secret.txt\n",
    "src/secret.txt": "s",
    "x.log": "log",
    "build/out.js": "o",
    ".git/HEAD": "ref",
    "node_modules/m/index.js": "m",
  });
  symlinkSync("/etc/passwd", join(ws, "outside"));
  const r = cp.record("before", ts(1));
  const paths = r?.snapshot.entries.map((e) => e.path).sort();
  expect(paths).toEqual([".gitignore", "outside", "src/.gitignore", "src/a.ts"]);
  expect(r?.snapshot.entries.find((e) => e.path === "outside")).toEqual({
    kind: "link",
    path: "outside",
    target: "/etc/passwd",
  });
});

test("an unchanged workspace reuses its snapshot; a change is seen, bash-made or not", () => {
  const { ws, cp, session } = setup({ "a.txt": "one", "b.txt": "two" });
  const first = cp.record("before", ts(1));
  const again = cp.record("before", ts(2));
  expect(again?.id).toBe(first?.id as string);
  writeFileSync(join(ws, "b.txt"), "changed by a command");
  const third = cp.record("before", ts(3));
  expect(third?.id).not.toBe(first?.id as string);
  expect(third?.changed).toEqual(["b.txt"]);
  const t = readTimeline(session.dir);
  expect(t.checkpoints.map((c) => c.snapshot)).toEqual([first?.id, first?.id, third?.id] as string[]);
});

test("a file over the cap is said once and left out; a walk over the file cap stops with one line", () => {
  const { ws, cp, warnings } = setup(
    { "big.bin": "x".repeat(2000), "small.txt": "s" },
    { max_file_bytes: 1000 },
  );
  cp.record("before", ts(1));
  cp.record("before", ts(2));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("big.bin");
  expect(warnings[0]).toContain("max_file_bytes");
  const many = setup(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `${i}`])), {
    max_files: 10,
  });
  const r = many.cp.record("before", ts(1));
  many.cp.record("before", ts(2));
  expect(r?.snapshot.entries).toHaveLength(10);
  expect(r?.snapshot.partial).toContain("more than 10 files");
  expect(many.warnings).toHaveLength(1);
  expect(many.warnings[0]).toContain("max_files");
  expect(existsSync(join(ws, "big.bin"))).toBe(true);
});

test("a huge workspace, even one of ignored files, stops at the time cap with one line", () => {
  const files: Record<string, string> = { ".gitignore": "*.gen\n" };
  for (let d = 0; d < 300; d++) for (let f = 0; f < 10; f++) files[`d${d}/f${f}.gen`] = "x";
  const { cp, warnings } = setup(files, { max_ms: 1 });
  const r = cp.record("before", ts(1));
  expect(r?.snapshot.partial).toContain("took longer than 1 ms");
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("max_ms");
});

test("a store that cannot be written: one warning, the session still opens", () => {
  const { cp, session, data, warnings } = setup({ "a.txt": "a" });
  writeFileSync(join(session.dir, "checkpoints"), "in the way");
  expect(cp.record("before", ts(1))).toBeUndefined();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("checkpoint not recorded");
  session.checkpoint([{ role: "system", content: "s" }, user("hi", 1)]);
  expect(Session.open(data, session.id).history()).toHaveLength(2);
});

test("undo restores files (edited, created, deleted, a link), drops the turn and gives back the draft; redo reverses it", async () => {
  const { ws, cp, session } = setup({ "a.txt": "original", "gone.txt": "keep me" });
  symlinkSync("a.txt", join(ws, "link"));
  let history: History = [{ role: "system", content: "s" }, user("first", 1), reply("ok")];
  session.checkpoint(history);
  // Turn 2 changes files: checkpoint before, changes, checkpoint after.
  history = [...history, user("change things", 2)];
  session.checkpoint(history);
  cp.beforeChange(ts(2));
  writeFileSync(join(ws, "a.txt"), "edited");
  writeFileSync(join(ws, "new.txt"), "created");
  rmSync(join(ws, "gone.txt"));
  rmSync(join(ws, "link"));
  symlinkSync("/tmp", join(ws, "link"));
  history = [...history, reply("done")];
  session.checkpoint(history);
  cp.afterTurn();
  expect(turnRows(history, readTimeline(session.dir)).map((r) => r.files)).toEqual([0, 4]);

  const deps = { session, checkpoints: cp, workspace: ws, confirm: async () => false };
  const u = await undo({ ...deps, history });
  expect(u.done).toBe(true);
  expect(u.draft).toBe("change things");
  expect(u.history).toHaveLength(3);
  expect(read(ws, "a.txt")).toBe("original");
  expect(read(ws, "gone.txt")).toBe("keep me");
  expect(existsSync(join(ws, "new.txt"))).toBe(false);
  expect(readlinkSync(join(ws, "link"))).toBe("a.txt");
  expect(Session.open(session.dir.replace(/\/[^/]+$/, ""), session.id).history()).toHaveLength(3);

  const r = await redo({ ...deps, history: u.history });
  expect(r.done).toBe(true);
  expect(r.history).toEqual(history);
  expect(read(ws, "a.txt")).toBe("edited");
  expect(read(ws, "new.txt")).toBe("created");
  expect(lstatSync(join(ws, "link")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(ws, "link"))).toBe("/tmp");
  const again = await redo({ ...deps, history: r.history });
  expect(again.done).toBe(false);
});

test("a file changed by hand since the checkpoint needs confirmation; declined, nothing changes", async () => {
  const { ws, cp, session } = setup({ "a.txt": "v1", "b.txt": "b" });
  let history: History = [{ role: "system", content: "s" }, user("edit a", 1)];
  session.checkpoint(history);
  cp.beforeChange(ts(1));
  writeFileSync(join(ws, "a.txt"), "v2 by the agent");
  history = [...history, reply("done")];
  session.checkpoint(history);
  cp.afterTurn();
  writeFileSync(join(ws, "a.txt"), "v3 by hand");
  const asked: string[][] = [];
  const deps = { session, checkpoints: cp, workspace: ws, history };
  const no = await rewindTo(
    {
      ...deps,
      confirm: async (p) => {
        asked.push(p);
        return false;
      },
    },
    1,
    "code",
    "rewind",
  );
  expect(no.done).toBe(false);
  expect(asked).toEqual([["a.txt"]]);
  expect(read(ws, "a.txt")).toBe("v3 by hand");
  const yes = await rewindTo({ ...deps, confirm: async () => true }, 1, "code", "rewind");
  expect(yes.done).toBe(true);
  expect(yes.history).toEqual(history);
  expect(read(ws, "a.txt")).toBe("v1");
  // Undo right after a rewind takes the rewind back.
  const back = await undo({ ...deps, confirm: async () => true });
  expect(back.lines[0]).toContain("/rewind is undone");
  expect(read(ws, "a.txt")).toBe("v3 by hand");
});

test("a file turned into a directory, and a parent turned into a link pointing outside, are handled", async () => {
  const { ws, cp, session } = setup({ "a.txt": "a", "d/f.txt": "f" });
  const outside = tempDir("i-cp-outside-");
  dirs.push(outside);
  let history: History = [{ role: "system", content: "s" }, user("go", 1)];
  session.checkpoint(history);
  cp.beforeChange(ts(1));
  rmSync(join(ws, "a.txt"));
  mkdirSync(join(ws, "a.txt"));
  writeFileSync(join(ws, "a.txt", "inner"), "i");
  rmSync(join(ws, "d"), { recursive: true });
  symlinkSync(outside, join(ws, "d"));
  history = [...history, reply("done")];
  session.checkpoint(history);
  cp.afterTurn();
  const out = await rewindTo(
    { session, checkpoints: cp, workspace: ws, history, confirm: async () => true },
    1,
    "code",
    "rewind",
  );
  expect(out.done).toBe(true);
  expect(read(ws, "a.txt")).toBe("a");
  // The link (which the checkpoint did not have) is removed, never written through: d is a directory
  // again, and nothing reached the directory it pointed to.
  expect(lstatSync(join(ws, "d")).isDirectory()).toBe(true);
  expect(read(ws, "d/f.txt")).toBe("f");
  expect(existsSync(join(outside, "f.txt"))).toBe(false);
});

test("a pruned checkpoint: the rewind says so in one line and changes nothing", async () => {
  const { ws, cp, session } = setup({ "a.txt": "x".repeat(5000) }, { max_store_bytes: 6000 });
  let history: History = [{ role: "system", content: "s" }, user("one", 1)];
  session.checkpoint(history);
  cp.beforeChange(ts(1));
  writeFileSync(join(ws, "a.txt"), "y".repeat(5000));
  chmodSync(join(ws, "a.txt"), 0o600);
  history = [...history, reply("r"), user("two", 2)];
  session.checkpoint(history);
  cp.afterTurn();
  cp.beforeChange(ts(2));
  writeFileSync(join(ws, "a.txt"), "z".repeat(5000));
  cp.afterTurn();
  const out = await rewindTo(
    { session, checkpoints: cp, workspace: ws, history, confirm: async () => true },
    1,
    "both",
    "rewind",
  );
  expect(out.done).toBe(false);
  expect(out.lines).toHaveLength(1);
  expect(out.lines[0]).toContain("no longer in the store");
  expect(read(ws, "a.txt")).toBe("z".repeat(5000));
});

test("the draft an undo gives back is what was typed: a !command as typed, a message before its attachments", async () => {
  const { userDraft } = await import("../../src/safety/timeline.ts");
  expect(userDraft({ role: "user", content: "output…", meta: { shell_command: "ls -l" } })).toBe("!ls -l");
  expect(
    userDraft({ role: "user", content: "see @a.ts\n<attached a.ts>…", meta: { typed: "see @a.ts" } }),
  ).toBe("see @a.ts");
  expect(userDraft({ role: "user", content: "plain" })).toBe("plain");
});

test("a file touched but not changed refreshes the stat cache once, then is not read again", () => {
  const { ws, cp } = setup({ "a.txt": "same", "b.txt": "b" });
  const first = cp.record("before", ts(1));
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(ws, "a.txt"), later, later);
  const touched = cp.record("before", ts(2));
  expect(touched?.changed).toEqual([]);
  expect(touched?.id).not.toBe(first?.id as string);
  const again = cp.record("before", ts(3));
  expect(again?.id).toBe(touched?.id as string);
});
