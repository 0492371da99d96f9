// A command started as its own group's leader: its output lands in the one file descriptor, its exit
// code or ending signal is reported once, it leads its own process group (so one signal stops all it
// started), and a program that does not exist fails to start. On Bun this is Bun's own spawn.
import { afterAll, expect, test } from "bun:test";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type LeaderEvents, startGroupLeader } from "../../src/runtime/group-leader.ts";
import { killGroup } from "../../src/runtime/process-group.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const dir = tempDir();
afterAll(() => removeDir(dir));

function run(script: string, name: string) {
  const file = join(dir, name);
  const fd = openSync(file, "w");
  let events: LeaderEvents | undefined;
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    events = { exit: (code, signal) => resolve({ code, signal }), error: reject };
  });
  const child = startGroupLeader(
    "sh",
    ["-c", script],
    { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, outFd: fd },
    events as LeaderEvents,
  );
  return { child, ended, output: () => readFileSync(file, "utf8"), close: () => closeSync(fd) };
}

test("output to the descriptor, the exit code, the workspace as cwd", async () => {
  const r = run("echo out; echo err >&2; pwd; exit 3", "a.txt");
  expect(await r.ended).toEqual({ code: 3, signal: null });
  r.close();
  expect(r.output()).toBe(`out\nerr\n${dir}\n`);
});

/** Processes of group `pgid` that still run. A zombie is not counted: an orphan's is reaped by pid 1,
 * which on some machines does that only every few seconds, and a signal to the group still "reaches" it. */
function liveMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      if (fields[2] === String(pgid) && fields[0] !== "Z") pids.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

test("its own process group, stopped as a whole by one signal", async () => {
  const r = run("sleep 30 & sleep 30; wait", "b.txt");
  const pid = r.child.pid as number;
  expect(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[2]).toBe(String(pid));
  for (let i = 0; i < 100 && liveMembers(pid).length < 3; i++) await Bun.sleep(10);
  expect(liveMembers(pid).length).toBe(3);
  killGroup(r.child, "SIGTERM");
  expect(await r.ended).toEqual({ code: null, signal: "SIGTERM" });
  r.close();
  for (let i = 0; i < 50 && liveMembers(pid).length > 0; i++) await Bun.sleep(20);
  expect(liveMembers(pid)).toEqual([]);
});

test("a program that does not exist does not start", async () => {
  const fd = openSync(join(dir, "c.txt"), "w");
  const failed = new Promise<Error>((resolve) => {
    try {
      startGroupLeader(
        "no-such-program-here",
        [],
        { cwd: dir, env: { PATH: "/nonexistent" }, outFd: fd },
        {
          exit: () => resolve(new Error("it ran")),
          error: resolve,
        },
      );
    } catch (err) {
      resolve(err as Error);
    }
  });
  expect((await failed).message).toContain("no-such-program-here");
  closeSync(fd);
});
