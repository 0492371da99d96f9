// The watchdog after kill -9 of the process that owns it, with the "del" of an emptied group deferred
// to the next "add": a group still running is killed; a group whose shell exited but left a member in
// the background was forgotten at once (left on purpose, it outlives its owner); and the deferred
// lines, written together with the next "add", are each read as a line.
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alive, pollUntil } from "../helpers/procs.ts";

const GROUPS = join(import.meta.dirname, "..", "..", "src", "runtime", "process-group.ts");

let dir = "";
const strays: number[] = [];
afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The owner: a group that left `sleep` behind, three emptied groups (their "del" deferred), then one
// that runs, whose "add" carries the deferred lines; it prints the pids and waits to be killed.
const OWNER = `
import { spawn } from "node:child_process";
import { trackGroup, untrackGroup } from ${JSON.stringify(GROUPS)};
const run = (script) => new Promise((resolve) => {
  const c = spawn("/bin/sh", ["-c", script], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
  trackGroup(c);
  let out = "";
  c.stdout.on("data", (b) => { out += b; });
  c.on("exit", () => { untrackGroup(c); resolve(out.trim()); });
});
const left = await run("sleep 30 >/dev/null & echo $!");
for (let i = 0; i < 3; i++) await run("exit 0");
const c = spawn("/bin/sh", ["-c", "sleep 30"], { detached: true, stdio: "ignore" });
trackGroup(c);
console.log(JSON.stringify({ left: Number(left), running: c.pid }));
setInterval(() => {}, 1000);
`;

test.skipIf(process.platform !== "linux")(
  "kill -9 of the owner: the running group dies, the one left in the background lives",
  async () => {
    dir = mkdtempSync(join(tmpdir(), "i-watchdog-"));
    const file = join(dir, "owner.mjs");
    writeFileSync(file, OWNER);
    const owner = spawn(process.execPath, [file], { stdio: ["ignore", "pipe", "inherit"] });
    const pids = await new Promise<{ left: number; running: number }>((resolve) =>
      owner.stdout?.once("data", (b: Buffer) => resolve(JSON.parse(String(b)))),
    );
    strays.push(pids.left, pids.running);
    expect(alive(pids.left)).toBe(true);
    expect(alive(pids.running)).toBe(true);
    // The owner's pipe writes go out asynchronously: give them a moment to reach the watchdog.
    await new Promise((r) => setTimeout(r, 300));
    owner.kill("SIGKILL");
    expect(await pollUntil(() => !alive(pids.running), 10_000)).toBe(true);
    // Given the same time, the group forgotten at once is still there.
    expect(alive(pids.left)).toBe(true);
  },
  20_000,
);
