// A steering worker that fails at console start: the console refuses to start with one line naming the
// worker and the fix, exits non-zero, claims no session, and keeps what the user typed (printed, and in
// the workspace's input history). Every fault kind of the misbehaving fixture worker, plus a program that
// is not a worker at all.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { historyPath } from "../../src/console/input/history.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { consoleIn, flat, Pty } from "../helpers/pty.ts";
import { BUN, MISBEHAVE } from "../worker/helpers.ts";

const FAULTS: Record<string, string[]> = {
  crash: [BUN, MISBEHAVE, "--module", "steering", "--mode", "crash"],
  garbage: [BUN, MISBEHAVE, "--module", "steering", "--mode", "garbage"],
  "wrong id": [BUN, MISBEHAVE, "--module", "steering", "--mode", "wrong-id"],
  "oversized line": [BUN, MISBEHAVE, "--module", "steering", "--mode", "huge"],
  "non-object": [BUN, MISBEHAVE, "--module", "steering", "--mode", "invalid"],
  "error reply": [BUN, MISBEHAVE, "--module", "steering", "--mode", "error"],
  "exit at start": [BUN, MISBEHAVE, "--module", "steering", "--mode", "exit-at-start"],
  "hello error": [BUN, MISBEHAVE, "--module", "steering", "--mode", "hello-error"],
  "bad steer reply": [BUN, MISBEHAVE, "--module", "steering", "--mode", "bad-steer"],
  "not a worker": ["/bin/false"],
};

const rigs: Rig[] = [];
afterAll(async () => {
  await Promise.all(rigs.map((r) => r.close()));
});

async function rigWith(exec: string[]): Promise<Rig> {
  const rig = await makeRig({ script: [{ text: "never asked" }] });
  rigs.push(rig);
  writeFileSync(join(rig.configDir, "bindings.json"), JSON.stringify({ steering: { exec } }));
  return rig;
}

/** Session directories in the data dir (its queues, memory and input history are not sessions). */
function sessions(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir).filter((d) => !["queues", "memory", "input-history"].includes(d));
}

describe("a failing steering worker", () => {
  test.each(Object.keys(FAULTS))(
    "%s: refused with one line, exit 2, no session, the message kept",
    async (kind) => {
      const rig = await rigWith(FAULTS[kind] as string[]);
      const r = await rig.run(["do X", "--approve", "all"]);
      expect(r.code).toBe(2);
      const errLines = r.stderr.trim().split("\n");
      expect(errLines).toHaveLength(1);
      expect(errLines[0]).toContain("the console cannot start: its steering worker");
      expect(errLines[0]).toContain('worker "steering"');
      expect(errLines[0]).toContain('fix or remove the "steering" entry of bindings.json');
      expect(r.stdout).toContain("not sent, kept in the input history (↑ recalls it): do X");
      expect(r.stdout).not.toContain("saved");
      expect(r.stdout).not.toContain("new session");
      expect(sessions(rig.dataDir)).toEqual([]);
      expect(rig.mock.requests).toHaveLength(0);
      const history = JSON.parse(readFileSync(historyPath(rig.dataDir, rig.workspace), "utf8"));
      expect(history.entries).toEqual(["do X"]);
      const resumed = await rig.run(["-c", "-p", "again"]);
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toContain("no saved session");
    },
    60_000,
  );

  test("one that fails later, at a turn's first safe point: that turn fails in one line, the message is kept", async () => {
    const rig = await makeRig({ script: [{ text: "answered the second" }] });
    rigs.push(rig);
    const count = join(rig.root, "count.txt");
    writeFileSync(
      join(rig.configDir, "bindings.json"),
      JSON.stringify({
        steering: {
          exec: [BUN, MISBEHAVE, "--module", "steering", "--mode", "crash-second", "--count", count],
        },
      }),
    );
    const r = await runCliAsync(
      ["--approve", "all", ...rig.flags],
      { ...rig.env, NO_COLOR: "1" },
      undefined,
      "first line\nsecond line\n/exit\n",
    );
    const failed = r.stdout.split("\n").filter((l) => l.includes("✗"));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('worker "steering" failed on event "steer": exited with code 70');
    expect(r.stdout).toContain("not sent, kept in the input history (↑ recalls it): first line");
    // The next turn gets a fresh worker and goes through.
    expect(r.stdout).toContain("answered the second");
    expect(r.code).toBe(0);
    const history = JSON.parse(readFileSync(historyPath(rig.dataDir, rig.workspace), "utf8"));
    expect(history.entries).toContain("first line");
  }, 60_000);

  test("in a terminal: the exit status is 2 and ↑ at the next console recalls the message", async () => {
    const rig = await rigWith(FAULTS.crash as string[]);
    let pty = await Pty.start(consoleIn(rig, ["do X", "--approve", "all"]));
    try {
      await pty.waitExit();
      const screen = flat(await pty.screen({ history: true }));
      expect(screen).toContain("not sent, kept in the input history (↑ recalls it): do X");
      expect(screen).toContain("the console cannot start");
      expect(await pty.exitStatus()).toBe(2);
    } finally {
      await pty.close();
    }
    // Fixed: the next console starts, and the message is one ↑ away.
    writeFileSync(join(rig.configDir, "bindings.json"), "{}");
    pty = await Pty.start(consoleIn(rig, ["--approve", "all"]));
    try {
      await pty.waitFor("Ctrl-C cancels");
      await pty.press("Up");
      await pty.waitFor("› do X");
    } finally {
      await pty.close();
    }
  }, 90_000);
});
