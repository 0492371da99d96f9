// Killing a worker or a command with what it started: its process group on POSIX; on Windows (the path
// taken here with a stand-in taskkill on PATH) its tree through taskkill /T /F while it still runs, and
// then the process itself; never taskkill for a process that has exited (its pid may be reused).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { killGroup } from "../../src/runtime/process-group.ts";
import { pollUntil, shellWithBackgroundChild } from "../helpers/procs.ts";
import { pidExists } from "../worker/helpers.ts";

const until = (cond: () => boolean) => pollUntil(cond, 5000);

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

let dir = "";
let calls = "";
const path = process.env.PATH;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "group-"));
  calls = join(dir, "calls");
  // The stand-in records its arguments and exits 0, as taskkill does once it has ended the tree.
  const taskkill = join(dir, "taskkill");
  writeFileSync(taskkill, `#!/bin/sh\necho "$@" >> "${calls}"\n`);
  chmodSync(taskkill, 0o755);
  process.env.PATH = `${dir}${delimiter}${path ?? ""}`;
});
afterAll(() => {
  process.env.PATH = path;
  rmSync(dir, { recursive: true, force: true });
});

test("POSIX: the whole group goes, a background grandchild included", async () => {
  if (process.platform === "win32") return;
  const { sh, grandchild } = await shellWithBackgroundChild();
  killGroup(sh, "SIGKILL");
  expect(await until(() => !pidExists(grandchild))).toBe(true);
  expect(await until(() => exited(sh))).toBe(true);
});

test("Windows: a running process's tree is ended with taskkill /T /F, and the process itself", async () => {
  if (process.platform === "win32") return;
  rmSync(calls, { force: true });
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  await until(() => child.pid !== undefined);
  killGroup(child, "SIGKILL", "win32");
  expect(await until(() => child.signalCode === "SIGKILL")).toBe(true);
  expect(await until(() => existsSync(calls))).toBe(true);
  expect(readFileSync(calls, "utf8").trim()).toBe(`/T /F /PID ${child.pid}`);
});

test("Windows: a process that has exited gets no taskkill (its pid may be another program's)", async () => {
  if (process.platform === "win32") return;
  rmSync(calls, { force: true });
  const child = spawn("true", [], { stdio: "ignore" });
  expect(await until(() => exited(child))).toBe(true);
  killGroup(child, "SIGKILL", "win32");
  await new Promise((r) => setTimeout(r, 300));
  expect(existsSync(calls)).toBe(false);
});
