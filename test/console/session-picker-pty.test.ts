// `i -r` without an id, as a person uses it: a picker of this workspace's saved sessions (title, age, size)
// with the marked one's first request and last exchange under it, type-to-filter, Enter resumes; --all
// lists other workspaces' sessions too; a title with escapes is drawn inert; without a terminal, one line.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { liveConsole, PTY_TEST_MS } from "./console-pty.ts";

const live = liveConsole();

/** A print-mode session in `workspace` (the rig's by default). */
async function session(rig: Rig, prompt: string, workspace = rig.workspace): Promise<void> {
  const flags = rig.flags.map((f) => (f === rig.workspace ? workspace : f));
  const r = await runCliAsync(["-p", prompt, ...flags], rig.env);
  expect(r.code).toBe(0);
}

test(
  "i -r: the picker lists the sessions with a preview; typing filters; Enter resumes the chosen one",
  async () => {
    const { rig, pty: first } = await live.open(
      [{ text: "apples are red" }, { text: "bananas are yellow" }, { text: "the resumed reply" }],
      { cols: 120, rows: 30 },
    );
    await first.close();
    await session(rig, "tell me about apples");
    await session(rig, "tell me about bananas \u001b[31mred\u001b[0m");
    const pty = await live.reopen(["-r"], { cols: 120, rows: 30 });
    await pty.waitFor("resume a session of this workspace (2 saved, newest first):");
    const screen = await pty.waitFor("reply: bananas are yellow");
    expect(screen).toMatch(/› tell me about bananas .*red.*\d+s ago · \d+ messages · [\d.]+ (B|KB)/);
    // The escape in the title is shown inert, never interpreted.
    expect(await pty.raw("utf8")).not.toContain("\u001b[31mred");
    await pty.type("apples");
    await pty.waitFor("reply: apples are red");
    await pty.waitFor((s) => !s.includes("tell me about bananas"));
    await pty.press("Enter");
    await pty.waitFor("resumed session");
    await pty.waitFor("Ctrl-C cancels");
    await pty.type("more please");
    await pty.press("Enter");
    await pty.waitFor("the resumed reply");
    // The resumed session is the apples one: its history went with the request.
    expect(JSON.stringify(rig.mock.requests.at(-1)?.body)).toContain("apples are red");
  },
  PTY_TEST_MS,
);

test(
  "i -r --all lists other workspaces' sessions; Esc leaves without opening one",
  async () => {
    const { rig, pty: first } = await live.open([{ text: "here" }, { text: "elsewhere" }], { cols: 140 });
    await first.close();
    const other = join(rig.root, "other-ws");
    mkdirSync(other);
    await session(rig, "a session in this workspace");
    await session(rig, "a session in another workspace", other);
    const mine = await live.reopen(["-r"], { cols: 140, rows: 24 });
    await mine.waitFor("(1 saved, newest first)");
    await mine.press("Escape");
    await mine.waitFor("no session chosen");
    await mine.waitExit();
    const all = await live.reopen(["-r", "--all"], { cols: 140, rows: 24 });
    await all.waitFor("resume a session of every workspace (2 saved, newest first):");
    await all.waitFor((s) => s.includes("a session in another workspace") && s.includes("other-ws"));
  },
  PTY_TEST_MS,
);

test("without a terminal, i -r with no id says to give one (exit 2)", async () => {
  const { rig, pty } = await live.open([]);
  await pty.close();
  const r = await rig.run(["-r"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("i -r: give the session's id without a terminal (`i sessions` lists them)");
  const p = await rig.run(["-p", "hi", "-r"]);
  expect(p.code).toBe(2);
  expect(p.stderr).toContain("in print mode");
}, 60_000);

test(
  "SIGTERM while the picker is up: exit 143 and the terminal back in its normal mode",
  async () => {
    const { rig, pty: first } = await live.open([{ text: "saved" }]);
    await first.close();
    await session(rig, "one to pick");
    const pty = await live.reopen(["-r"], { cols: 120, rows: 24 });
    await pty.waitFor("resume a session of this workspace");
    process.kill(await pty.pid(), "SIGTERM");
    await pty.waitExit();
    expect(await pty.exitStatus()).toBe(143);
    expect(await pty.sttyAfterExit()).toMatch(/(^|\s)icanon(\s|$)/);
  },
  PTY_TEST_MS,
);
