// Killing a process with what it started: its group on POSIX, its tree through taskkill on Windows.
import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { killTree, treeKillCommand } from "../../src/lib/kill-tree.ts";
import { pollUntil, shellWithBackgroundChild } from "../helpers/procs.ts";
import { pidExists } from "../worker/helpers.ts";

const until = (cond: () => boolean) => pollUntil(cond, 5000);

test("on Windows the whole tree is ended at once: taskkill /T /F /PID n", () => {
  expect(treeKillCommand(4242)).toEqual(["taskkill", ["/T", "/F", "/PID", "4242"]]);
});

test("POSIX: the group goes, a background grandchild included", async () => {
  if (process.platform === "win32") return;
  const { sh, grandchild } = await shellWithBackgroundChild();
  expect(pidExists(grandchild)).toBe(true);
  killTree(sh.pid, "SIGKILL");
  expect(await until(() => !pidExists(grandchild))).toBe(true);
  expect(await until(() => sh.exitCode !== null || sh.signalCode !== null)).toBe(true);
});

test("a pid that is no process (none, 0, a spawn that failed) is never signalled", () => {
  // -1 would address every process this user may signal; 0 this process's own group.
  for (const pid of [undefined, 0, -1]) expect(() => killTree(pid, "SIGKILL")).not.toThrow();
  expect(pidExists(process.pid)).toBe(true);
});

test("without taskkill (the Windows path run here), the process itself is still ended", async () => {
  if (process.platform === "win32") return;
  const p = spawn("sleep", ["30"], { stdio: "ignore" });
  killTree(p.pid, "SIGKILL", "win32");
  expect(await until(() => p.signalCode === "SIGKILL")).toBe(true);
});
