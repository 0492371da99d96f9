// `i sessions`: the sessions of a workspace as a table, newest first; a clear line when there are none.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { runCli } from "../helpers/cli.ts";
import { expectedMessage, SYSTEM } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, nextMillisecond } from "./helpers.ts";

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

test("no sessions", () => {
  const r = runCli(["sessions"], { I_DATA_DIR: d.data }, d.ws);
  expect(r).toEqual({ code: 0, stdout: `no sessions for workspace ${d.ws}\n`, stderr: "" });
});

test("lists id, updated, messages, compactions and title, newest first, for cwd or --workspace", () => {
  const older = Session.create({ dataDir: d.data, workspace: d.ws });
  older.checkpoint([SYSTEM, { role: "user", content: "  fix the parser  \nwith details" }]);
  nextMillisecond();
  const newer = Session.create({ dataDir: d.data, workspace: d.ws });
  const h = [SYSTEM, expectedMessage(1), expectedMessage(2), expectedMessage(3), expectedMessage(4)];
  newer.checkpoint(h);
  newer.commitCompaction(h, [SYSTEM, { role: "user", content: "summary" }, ...h.slice(1)], {
    reason: "manual",
  });
  Session.create({ dataDir: d.data, workspace: join(d.root, "elsewhere") });

  const r = runCli(["sessions"], { I_DATA_DIR: d.data }, d.ws);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines.length).toBe(4);
  expect(lines[3]).toContain("`i sessions --recover ID` prints every message it ever held");
  expect(lines[0]).toMatch(/^ID\s+UPDATED\s+MESSAGES\s+COMPACTIONS\s+TITLE$/);
  expect(lines[1]).toMatch(
    new RegExp(`^${newer.id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+6\\s+1\\s+question 1$`),
  );
  expect(lines[2]).toMatch(
    new RegExp(`^${older.id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+2\\s+0\\s+fix the parser$`),
  );

  const viaFlag = runCli(["sessions", "--workspace", d.ws], { I_DATA_DIR: d.data }, d.root);
  expect(viaFlag.stdout).toBe(r.stdout);
});

test("a --workspace that does not exist is a one-line error, exit 2", () => {
  const r = runCli(["sessions", "--workspace", join(d.root, "missing")], { I_DATA_DIR: d.data }, d.ws);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `i: --workspace: "${join(d.root, "missing")}" does not exist; pass an existing directory\n`,
  );
});

test("--recover ID prints every message the session ever held, compacted away or not", () => {
  const s = Session.create({ dataDir: d.data, workspace: d.ws });
  const h = [SYSTEM, expectedMessage(1), expectedMessage(2), expectedMessage(3), expectedMessage(4)];
  s.checkpoint(h);
  const summary = { role: "user" as const, content: "summary of 1-4" };
  s.commitCompaction(h, [SYSTEM, summary], { reason: "manual" });
  s.checkpoint([SYSTEM, summary, expectedMessage(5)]);
  const r = runCli(["sessions", "--recover", s.id.slice(0, 20)], { I_DATA_DIR: d.data }, d.root);
  expect(r.code).toBe(0);
  const all = JSON.parse(r.stdout) as unknown[];
  expect(all).toEqual([SYSTEM, ...[1, 2, 3, 4].map(expectedMessage), summary, expectedMessage(5)]);
  // The current checkpoint alone no longer has messages 1-4.
  expect(Session.open(d.data, s.id).history().length).toBe(3);

  // Terminal controls in a message reach the screen only as visible escapes, and the JSON still parses.
  s.checkpoint([
    SYSTEM,
    summary,
    expectedMessage(5),
    { role: "user", content: "evil \u009b2J \u202e \u001b[31m" },
  ]);
  const evil = runCli(["sessions", "--recover", s.id], { I_DATA_DIR: d.data }, d.root);
  const raw = [...evil.stdout].filter((c) => {
    const cp = c.codePointAt(0) as number;
    return cp === 0x1b || (cp >= 0x80 && cp <= 0x9f) || cp === 0x202e;
  });
  expect(raw).toEqual([]);
  expect((JSON.parse(evil.stdout) as { content: string }[]).at(-1)?.content).toBe(
    "evil \u009b2J \u202e \u001b[31m",
  );

  const bad = runCli(["sessions", "--recover", "nope"], { I_DATA_DIR: d.data }, d.root);
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim().split("\n").length).toBe(1);
});
