// kill -9 of `i` while the model's bash command runs a loop (and its workers are up): nothing it started
// survives — not the shell, not the loop's children, not a worker, not the watchdog that kills them.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { procStat } from "../../src/runtime/proc-stat.ts";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Every process whose ancestry leads to `root` (its descendants, at the time of the call). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = procStat(name)?.(4);
    if (ppid !== undefined) parent.set(Number(name), Number(ppid));
  }
  const out: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === root) {
        out.push(pid);
        break;
      }
  }
  return out;
}

/** The program name of `pid` (/proc/PID/comm), or "" once it is gone. */
function procComm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

const hasBwrap = () =>
  (process.env.PATH ?? "").split(":").some((d) => d !== "" && existsSync(join(d, "bwrap")));

function alive(pid: number): boolean {
  // A zombie is dead (it waits only for its new parent, init, to reap it).
  const state = procStat(pid)?.(3);
  return state !== undefined && state !== "Z";
}

function groupMembers(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n) && procStat(n)?.(5) === String(pgid))
    .map(Number)
    .filter(alive);
}

async function until(cond: () => boolean, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

test.skipIf(process.platform !== "linux")(
  "kill -9 of i while bash loops: the command's whole group, the workers and the watchdog are gone",
  async () => {
    rig = await makeRig({
      script: [
        {
          tool_calls: [
            {
              name: "bash",
              arguments: {
                command: `echo $$ > pgid.txt; for i in $(seq 1 60); do echo tick; sleep 1; done`,
              },
            },
          ],
        },
        { text: "never reached" },
      ],
      // The compaction worker is up from the first request on (the standard profile's budget hook).
    });
    // --sandbox off: the command reports its own pid ($$), which inside the sandbox's pid namespace is
    // not the one /proc shows here; the sandboxed case follows.
    const run = rig.start(["-p", "loop", "--approve", "all", "--sandbox", "off"]);
    const core = run.child.pid as number;
    const pgidFile = join(rig.workspace, "pgid.txt");
    expect(await until(() => readFileSync(pgidFile, { flag: "a+" }).toString().trim() !== "")).toBe(true);
    const pgid = Number(readFileSync(pgidFile, "utf8").trim());
    // The loop's own child (a sleep) is in the group too.
    expect(await until(() => groupMembers(pgid).length >= 2)).toBe(true);
    const before = descendants(core);
    expect(before).toContain(pgid);
    run.child.kill("SIGKILL");
    await run.done;
    expect(await until(() => groupMembers(pgid).length === 0, 5000)).toBe(true);
    expect(await until(() => before.filter(alive).length === 0, 5000)).toBe(true);
    expect(before.filter(alive)).toEqual([]);
  },
  60_000,
);

test.skipIf(process.platform !== "linux" || !hasBwrap())(
  "kill -9 of i while a sandboxed command loops: bwrap and everything in it are gone",
  async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "echo started > started.txt; sleep 300" } }] },
        { text: "never reached" },
      ],
    });
    const run = rig.start(["-p", "loop", "--approve", "all"]);
    const core = run.child.pid as number;
    const started = join(rig.workspace, "started.txt");
    expect(await until(() => readFileSync(started, { flag: "a+" }).toString().trim() !== "")).toBe(true);
    const before = descendants(core);
    // The command runs under bwrap (the default sandbox), with its sleep inside the pid namespace.
    expect(before.some((p) => procComm(p) === "bwrap")).toBe(true);
    expect(before.some((p) => procComm(p) === "sleep")).toBe(true);
    run.child.kill("SIGKILL");
    await run.done;
    expect(await until(() => before.filter(alive).length === 0, 5000)).toBe(true);
  },
  60_000,
);
