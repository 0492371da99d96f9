// Signals to the console, as a person meets them: SIGTERM while the model's command runs, and SIGHUP at
// an idle prompt, save the session, stop every child (the command's whole group, the workers), give the
// terminal back (raw mode off, bracketed paste off, cursor shown) and exit 143 / 129; Ctrl-C twice at an
// idle prompt exits 130; a second console on a session already open names the process that holds it.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import type { Rig } from "../agent/rig.ts";
import { alive, descendants, pollUntil } from "../helpers/procs.ts";
import { consoleIn, flat, Pty } from "../helpers/pty.ts";
import { startConsole } from "./console-pty.ts";

let opened: { rig: Rig; pty: Pty }[] = [];
afterEach(async () => {
  for (const o of opened) {
    await o.pty.close();
    await o.rig.close();
  }
  opened = [];
});

async function open(...args: Parameters<typeof startConsole>) {
  const o = await startConsole(...args);
  opened.push(o);
  return o;
}

const until = (cond: () => boolean, ms = 15_000) => pollUntil(cond, ms);

/** The terminal was given back: cooked mode, and the last bracketed-paste and cursor escapes turn them back. */
async function expectTerminalRestored(pty: Pty): Promise<void> {
  const stty = await pty.sttyAfterExit();
  expect(stty).toMatch(/(^|\s)icanon(\s|$)/);
  expect(stty).toMatch(/(^|\s)echo(\s|$)/);
  const raw = await pty.raw();
  expect(raw.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\u001b[?2004h"));
  expect(raw.lastIndexOf("\u001b[?25h")).toBeGreaterThanOrEqual(raw.lastIndexOf("\u001b[?25l"));
}

test.skipIf(process.platform !== "linux")(
  "SIGTERM while bash runs: session saved, the command's group and the workers gone, terminal back, exit 143",
  async () => {
    const { rig, pty } = await open(
      [
        { tool_calls: [{ name: "bash", arguments: { command: "echo $$ > pgid.txt; sleep 300" } }] },
        { text: "never" },
      ],
      // --sandbox off: $$ inside the sandbox's pid namespace is not the pid /proc shows here (the
      // sandboxed kill: test/runtime/kill9-children.test.ts).
      { args: ["--approve", "all", "--sandbox", "off"] },
    );
    const pid = await pty.pid();
    await pty.type("run the slow one");
    await pty.press("Enter");
    const pgidFile = join(rig.workspace, "pgid.txt");
    expect(await until(() => existsSync(pgidFile) && readFileSync(pgidFile, "utf8").trim() !== "")).toBe(
      true,
    );
    const pgid = Number(readFileSync(pgidFile, "utf8").trim());
    const children = descendants(pid);
    expect(children).toContain(pgid);
    expect(children.length).toBeGreaterThanOrEqual(3); // the shell, its sleep, a worker
    process.kill(pid, "SIGTERM");
    await pty.waitExit();
    expect(await pty.exitStatus()).toBe(143);
    expect(await until(() => children.filter(alive).length === 0, 5000)).toBe(true);
    await expectTerminalRestored(pty);
    const screen = flat(await pty.screen({ history: true }));
    expect(screen).toMatch(/session \S+ saved · resume with: i -r \S+/);
    const history = Session.newest(rig.dataDir, rig.workspace)?.history() ?? [];
    // The cancelled call's result, then the note that tells the model the turn was interrupted.
    expect(history.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(history[1]?.content).toBe("run the slow one");
  },
  90_000,
);

test("SIGHUP at an idle prompt: the exchange saved, terminal back, exit 129", async () => {
  const { rig, pty } = await open([{ text: "first answer" }]);
  const pid = await pty.pid();
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("first answer");
  process.kill(pid, "SIGHUP");
  await pty.waitExit();
  expect(await pty.exitStatus()).toBe(129);
  await expectTerminalRestored(pty);
  const history = Session.newest(rig.dataDir, rig.workspace)?.history() ?? [];
  expect(history.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
}, 90_000);

test("Ctrl-C twice at an idle prompt exits 130, the terminal back", async () => {
  const { pty } = await open([{ text: "x" }]);
  await pty.press("C-c");
  await pty.waitFor("press Ctrl-C again to exit");
  await pty.press("C-c");
  await pty.waitExit();
  expect(await pty.exitStatus()).toBe(130);
  await expectTerminalRestored(pty);
}, 60_000);

test("a second console on a session already open says which process holds it, exit 2", async () => {
  const first = await open([{ text: "first answer" }]);
  await first.pty.type("hello");
  await first.pty.press("Enter");
  await first.pty.waitFor("first answer");
  const holder = await first.pty.pid();
  const second = await Pty.start(consoleIn(first.rig, ["-c"], { cols: 100, rows: 24 }));
  try {
    await second.waitExit();
    expect(await second.exitStatus()).toBe(2);
    expect(flat(await second.screen({ history: true, joined: true }))).toContain(
      `is in use by another i process (pid ${holder}); wait for it to finish, or start a new session`,
    );
  } finally {
    await second.close();
  }
}, 90_000);
