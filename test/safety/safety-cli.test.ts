// The safety net from the command line, against the mock model: checkpoints taken by real runs (an edit
// and a bash change), `i sessions --rewind`, `--export` in each format, and `i -r ID --fork`.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionExport } from "../../src/contract/export.ts";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import { ROOT, runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const sessions = (r: Rig, args: string[]) => runCliAsync(["sessions", ...args], { ...r.env, NO_COLOR: "1" });
const read = (r: Rig, p: string) => readFileSync(join(r.workspace, p), "utf8");

/** Two turns: the first edits a.txt and makes b.txt with bash; the second changes a.txt again. */
async function twoTurns(): Promise<{ r: Rig; id: string }> {
  const r = await makeRig({
    files: { "a.txt": "alpha\n" },
    script: [
      {
        tool_calls: [
          { name: "edit", arguments: { path: "a.txt", old_text: "alpha", new_text: "beta" } },
          { name: "bash", arguments: { command: "echo made > b.txt" } },
        ],
      },
      { text: "first done" },
      { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "gamma\n" } }] },
      { text: "second done <script>alert(1)</script>" },
      { text: "fork reply" },
    ],
  });
  rig = r;
  expect((await r.run(["-p", "change things", "--approve", "all"])).code).toBe(0);
  expect((await r.run(["-p", "-c", "once more", "--approve", "all"])).code).toBe(0);
  const id = Session.list(r.dataDir, r.workspace)[0]?.id as string;
  return { r, id };
}

test("--rewind --to out of range is one line and exit 2; --code puts the files back, the conversation stays", async () => {
  const { r, id } = await twoTurns();
  expect(read(r, "a.txt")).toBe("gamma\n");
  const bad = await sessions(r, ["--rewind", id, "--to", "3"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  expect(bad.stderr).toContain("--to");
  const before = Session.open(r.dataDir, id).history().length;
  const ok = await sessions(r, ["--rewind", id, "--to", "1", "--code"]);
  expect(ok.code).toBe(0);
  expect(read(r, "a.txt")).toBe("alpha\n");
  expect(existsSync(join(r.workspace, "b.txt"))).toBe(false);
  expect(Session.open(r.dataDir, id).history()).toHaveLength(before);
});

test("--rewind refuses to overwrite a file changed by hand unless --yes; --conversation leaves files", async () => {
  const { r, id } = await twoTurns();
  writeFileSync(join(r.workspace, "a.txt"), "mine\n");
  const no = await sessions(r, ["--rewind", id, "--to", "2"]);
  expect(no.code).toBe(1);
  expect(no.stdout).toContain("a.txt");
  expect(read(r, "a.txt")).toBe("mine\n");
  const conv = await sessions(r, ["--rewind", id, "--to", "2", "--conversation"]);
  expect(conv.code).toBe(0);
  expect(read(r, "a.txt")).toBe("mine\n");
  const h = Session.open(r.dataDir, id).history();
  expect(h.filter((m) => m.role === "user")).toHaveLength(1);
  const yes = await sessions(r, ["--rewind", id, "--to", "1", "--code", "--yes"]);
  expect(yes.code).toBe(0);
  expect(read(r, "a.txt")).toBe("alpha\n");
});

test("--export: markdown with calls, results and diffs; JSON that validates; an existing path refused", async () => {
  const { r, id } = await twoTurns();
  const md = await sessions(r, ["--export", id, "--format", "md"]);
  expect(md.code).toBe(0);
  expect(md.stdout).toContain("## You");
  expect(md.stdout).toContain("change things");
  expect(md.stdout).toContain("**edit** `a.txt`");
  expect(md.stdout).toContain("-alpha");
  expect(md.stdout).toContain("+beta");
  expect(md.stdout).toContain("**bash** `echo made > b.txt`");
  const json = await sessions(r, ["--export", id, "--format", "json"]);
  const doc = SessionExport.parse(JSON.parse(json.stdout));
  expect(doc.messages.some((m) => m.kind === "tool_result")).toBe(true);
  expect(existsSync(join(ROOT, "schemas", "session-export.json"))).toBe(true);
  const file = join(r.root, "out.html");
  writeFileSync(file, "precious");
  const refused = await sessions(r, ["--export", id, "--format", "html", "--out", file]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("exists already");
  expect(readFileSync(file, "utf8")).toBe("precious");
  const badFormat = await sessions(r, ["--export", id, "--format", "pdf"]);
  expect(badFormat.code).toBe(2);
});

test("i -r ID --fork: a new session with the history, its parent recorded; the original untouched", async () => {
  const { r, id } = await twoTurns();
  const original = readFileSync(join(r.dataDir, id, "events.jsonl"), "utf8");
  const run = await r.run(["-p", "-r", id, "--fork", "in the fork", "--approve", "all"]);
  expect(run.code).toBe(0);
  expect(readFileSync(join(r.dataDir, id, "events.jsonl"), "utf8")).toBe(original);
  const ids = readdirSync(r.dataDir).filter((n) => n !== id && existsSync(join(r.dataDir, n, "meta.json")));
  expect(ids).toHaveLength(1);
  const fork = Session.open(r.dataDir, ids[0] as string);
  const texts = fork
    .history()
    .filter((m) => m.role === "user")
    .map((m) => m.content);
  expect(texts).toEqual(["change things", "once more", "in the fork"]);
  expect(readFileSync(join(fork.dir, "events.jsonl"), "utf8")).toContain(`"type":"fork","parent":"${id}"`);
});

test("a bad checkpoints.json is one line naming the file and field, exit 2, before any session exists", async () => {
  rig = await makeRig({ script: [{ text: "never" }] });
  writeFileSync(join(rig.configDir, "checkpoints.json"), JSON.stringify({ max_files: -1, enabled: true }));
  const r = await rig.run(["-p", "hello"]);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("checkpoints.json");
  expect(lines[0]).toContain("max_files");
  expect(rig.mock.requests).toHaveLength(0);
  const doctor = await runCliAsync(["doctor"], { ...rig.env, NO_COLOR: "1" });
  expect(doctor.stdout + doctor.stderr).toContain("checkpoints.json");
});
