// Stale-lock takeover is atomic: contenders in separate processes race for the same stale lock (its owner
// died), 100 times; each time exactly one wins, and every loser is refused with the winner's pid (exit 2).
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, startProgram, tempDir } from "../helpers/cli.ts";

const TRIALS = 100;
const CONTENDERS = 4;
const RACER = join(import.meta.dirname, "fixtures", "lock-racer.ts");
const root = tempDir("i-lock-race-");
afterAll(() => removeDir(root));

/** The pid of a process that has exited: what a crashed owner leaves in its lock. */
function deadPid(): number {
  const r = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

test(`${TRIALS} races of ${CONTENDERS} processes for a stale lock: exactly one winner each`, async () => {
  const dirs: string[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const dir = join(root, `s${t}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "lock"), `${deadPid()}\n`);
    dirs.push(dir);
  }
  // Far enough ahead for every contender to have started and loaded the lock module.
  const start = Date.now() + 3000;
  const racers = Array.from({ length: CONTENDERS }, () =>
    startProgram(process.execPath, [RACER, String(start), "15", ...dirs]),
  );
  const results = await Promise.all(racers.map((r) => r.done));
  const byTrial = new Map<number, string[]>();
  const winnerPid = new Map<number, number>();
  results.forEach((r, i) => {
    expect(r.stderr).toBe("");
    for (const line of r.stdout.trim().split("\n")) {
      const trial = Number(line.split(" ")[0]);
      byTrial.set(trial, [...(byTrial.get(trial) ?? []), line]);
      if (line.endsWith(" win")) winnerPid.set(trial, racers[i]?.child.pid as number);
    }
  });
  let contested = 0;
  for (let t = 0; t < TRIALS; t++) {
    const lines = byTrial.get(t) ?? [];
    expect(lines).toHaveLength(CONTENDERS);
    const winners = lines.filter((l) => l.endsWith(" win"));
    expect(winners).toHaveLength(1);
    const dir = dirs[t] as string;
    const owner = winnerPid.get(t);
    for (const l of lines.filter((x) => !x.endsWith(" win")))
      expect(l).toBe(
        `${t} lose 2 session trial-${t} is in use by another i process (pid ${owner}); wait for it to finish, or start a new session`,
      );
    // The winner released the lock as it exited; no contender's private file is left behind.
    expect(readdirSync(dir).filter((n) => !n.startsWith("lock.claim-"))).toEqual([]);
    contested++;
  }
  expect(contested).toBe(TRIALS);
}, 60_000);
