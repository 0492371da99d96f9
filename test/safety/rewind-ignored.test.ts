// Rewinds around ignored files, hand edits out of view, sub-agents' changes and damaged checkpoints: the
// real CLI against the mock model, then `i sessions --rewind`. Each case is a way a rewind used to lose
// data or say what it did not do.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const sessions = (r: Rig, args: string[]) => runCliAsync(["sessions", ...args], { ...r.env, NO_COLOR: "1" });
const read = (r: Rig, p: string) => readFileSync(join(r.workspace, p), "utf8");
const onlySession = (r: Rig) => Session.list(r.dataDir, r.workspace)[0]?.id as string;

test("a rewind never removes files that a change of .gitignore brought into view (.env, data/)", async () => {
  const r = await makeRig({
    files: { ".gitignore": ".env\ndata/\n", ".env": "SECRET=1\n", "data/local.db": "rows", "a.txt": "a\n" },
    script: [
      { tool_calls: [{ name: "write", arguments: { path: ".gitignore", content: "*.log\n" } }] },
      { text: "done" },
    ],
  });
  rig = r;
  expect((await r.run(["-p", "tidy the ignore file", "--approve", "all"])).code).toBe(0);
  const out = await sessions(r, ["--rewind", onlySession(r), "--to", "1", "--code"]);
  expect(out.code).toBe(0);
  expect(read(r, ".gitignore")).toBe(".env\ndata/\n");
  expect(read(r, ".env")).toBe("SECRET=1\n");
  expect(read(r, "data/local.db")).toBe("rows");
  expect(out.stdout).toContain("1 file written, 0 files removed");
  expect(out.stdout).toContain(".env");
  expect(out.stdout).toContain("data/local.db");
}, 60_000);

test("a hand edit of a file the turn took out of view is asked about, and /undo of the rewind brings it back", async () => {
  const r = await makeRig({
    files: { ".gitignore": "", "config.local": "v1\n" },
    script: [
      { tool_calls: [{ name: "write", arguments: { path: ".gitignore", content: "config.local\n" } }] },
      { text: "done" },
    ],
  });
  rig = r;
  expect((await r.run(["-p", "ignore the local config", "--approve", "all"])).code).toBe(0);
  writeFileSync(join(r.workspace, "config.local"), "mine\n");
  const id = onlySession(r);
  const no = await sessions(r, ["--rewind", id, "--to", "1", "--code"]);
  expect(no.code).toBe(1);
  expect(no.stdout).toContain("config.local");
  expect(read(r, "config.local")).toBe("mine\n");
  expect(read(r, ".gitignore")).toBe("config.local\n");
  const yes = await sessions(r, ["--rewind", id, "--to", "1", "--code", "--yes"]);
  expect(yes.code).toBe(0);
  expect(read(r, "config.local")).toBe("v1\n");
  // The edit was kept before it was overwritten: reversing the rewind (what /undo does) brings it back.
  const { Checkpointer } = await import("../../src/safety/checkpointer.ts");
  const { reverseRewind, reversible } = await import("../../src/safety/rewind.ts");
  const { loadCheckpointsPolicy } = await import("../../src/lib/checkpoints-file.ts");
  const session = Session.open(r.dataDir, id);
  const checkpoints = new Checkpointer({
    session,
    workspace: r.workspace,
    policy: loadCheckpointsPolicy(r.configDir),
    skip: [r.dataDir],
    warn: () => {},
  });
  const deps = {
    session,
    checkpoints,
    workspace: r.workspace,
    history: session.history(),
    confirm: async () => true,
  };
  const last = reversible(deps);
  expect(last?.kind).toBe("rewind");
  const back = await reverseRewind(deps, last as NonNullable<typeof last>);
  session.flush();
  expect(back.done).toBe(true);
  expect(read(r, "config.local")).toBe("mine\n");
  expect(read(r, ".gitignore")).toBe("config.local\n");
}, 60_000);

test("a task child's changes are covered by the parent's checkpoint: the rewind takes them back", async () => {
  const isChild = (req: RecordedRequest) => JSON.stringify(req.body).includes("Your role: the");
  let childSteps = 0;
  const r = await makeRig({
    files: { "a.txt": "original\n" },
    script: (req: RecordedRequest) => {
      if (isChild(req)) {
        childSteps++;
        return childSteps === 1
          ? {
              tool_calls: [
                { name: "write", arguments: { path: "a.txt", content: "child\n" } },
                { name: "write", arguments: { path: "new.txt", content: "made by the child\n" } },
              ],
            }
          : { text: "child wrote them" };
      }
      return JSON.stringify(req.body).includes("child wrote them")
        ? { text: "parent done" }
        : { tool_calls: [{ name: "task", arguments: { description: "w", prompt: "write files" } }] };
    },
  });
  rig = r;
  expect((await r.run(["-p", "delegate", "--approve", "all"])).code).toBe(0);
  expect(read(r, "a.txt")).toBe("child\n");
  const parent = Session.list(r.dataDir, r.workspace).find((s) => !s.parent)?.id as string;
  const out = await sessions(r, ["--rewind", parent, "--to", "1", "--yes"]);
  expect(out.code).toBe(0);
  expect(read(r, "a.txt")).toBe("original\n");
  expect(existsSync(join(r.workspace, "new.txt"))).toBe(false);
  expect(out.stdout).toContain("1 file written, 1 file removed");
}, 60_000);

test("a damaged checkpoint blob: the count says only what was written, and the exit is 1", async () => {
  const r = await makeRig({
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    script: [
      {
        tool_calls: [
          { name: "write", arguments: { path: "a.txt", content: "A\n" } },
          { name: "write", arguments: { path: "b.txt", content: "B\n" } },
        ],
      },
      { text: "done" },
    ],
  });
  rig = r;
  expect((await r.run(["-p", "change both", "--approve", "all"])).code).toBe(0);
  const id = onlySession(r);
  const { sha256 } = await import("../../src/safety/store.ts");
  const blob = sha256("alpha\n");
  const blobs = join(r.dataDir, id, "checkpoints", "blobs", blob.slice(0, 2));
  expect(readdirSync(blobs)).toContain(blob);
  writeFileSync(join(blobs, blob), "tampered");
  const out = await sessions(r, ["--rewind", id, "--to", "1", "--code"]);
  expect(out.stdout).toContain("a.txt: not restored");
  expect(out.stdout).toContain("1 file written");
  expect(out.stdout).not.toContain("2 files written");
  expect(out.code).toBe(1);
  expect(read(r, "b.txt")).toBe("bravo\n");
  expect(read(r, "a.txt")).toBe("A\n");
}, 60_000);
