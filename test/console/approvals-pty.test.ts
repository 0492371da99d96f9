// Approvals as a person answers them: one key (no Enter), "always" for a command's sensible prefix, the
// approval mode switched in the session (Shift+Tab, /approve) and shown on the status line, a proposed
// change shown inside the question as a proposal and gone after a refusal, long lines wrapped under the
// question's gutter.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";

const live = liveConsole({ args: ["--approve", "ask"] });

const asking = (s: string) => s.trimEnd().endsWith("allow? ›");
const count = (s: string, what: string) => s.split(what).length - 1;

test(
  "one key a allows a command's prefix: the next matching command runs without asking; n then a reason",
  async () => {
    const bash = (command: string): MockStep => ({ tool_calls: [{ name: "bash", arguments: { command } }] });
    const p = await live.start([
      bash("git status"),
      bash("git status --short"),
      bash("echo hi"),
      { text: "all done" },
    ]);
    await send(p, "go");
    let screen = await p.waitFor((s) => asking(s) && s.includes("│ git status"));
    expect(screen).toContain("a always `git status …`");
    await p.type("a"); // no Enter
    await p.waitFor("approved for the rest of the session");
    screen = await p.waitFor((s) => asking(s) && s.includes("│ echo hi"));
    // "always" for `echo hi` names the program, never its data argument.
    expect(screen).toContain("a always `echo …`");
    expect(screen).not.toContain("`echo hi …`");
    await p.type("n");
    await p.waitFor("why not?");
    await send(p, "use printf");
    screen = await p.waitFor("all done");
    expect(screen).toContain("declined: use printf");
    const history = await p.screen({ history: true });
    // Two questions, two answers: git status --short was covered by the first one.
    expect(count(history, "approved")).toBe(1);
    expect(count(history, "declined")).toBe(1);
    const refusal = JSON.stringify(live.rig?.mock.requests[3]?.body);
    expect(refusal).toContain("refused by the user, who said: use printf");
  },
  PTY_TEST_MS,
);

test(
  "Shift+Tab cycles the mode on the status line; accept edits writes without asking; /approve ask",
  async () => {
    const p = await live.start([
      { tool_calls: [{ name: "write", arguments: { path: "new.txt", content: "hello\n" } }] },
      { text: "written" },
    ]);
    const statusLine = (s: string) => s.split("\n").findLast((l) => l.includes("mock-model · openai")) ?? "";
    await p.waitFor((s) => statusLine(s).includes("ask first"));
    await p.press("BTab");
    await p.waitFor((s) => statusLine(s).includes("accept edits"));
    await send(p, "write it");
    const screen = await p.waitFor("written");
    expect(screen).not.toContain("allow write");
    expect(readFileSync(join(live.rig?.workspace ?? "", "new.txt"), "utf8")).toBe("hello\n");
    await p.press("BTab");
    await p.waitFor((s) => statusLine(s).includes("allow all"));
    await send(p, "/approve ask");
    await p.waitFor("approvals: ask first from the next call on");
    await p.waitFor((s) => statusLine(s).includes("ask first"));
  },
  PTY_TEST_MS,
);

test(
  "a proposed write is shown inside the question as a proposal, and a refusal leaves nothing applied-looking",
  async () => {
    const long = `printf '%s\\n' ${"word ".repeat(30).trim()}`;
    const p = await live.start([
      {
        tool_calls: [{ name: "write", arguments: { path: "plan.md", content: "step one\nstep two\n" } }],
      },
      { tool_calls: [{ name: "bash", arguments: { command: long } }] },
      { text: "understood" },
    ]);
    await send(p, "go");
    let screen = await p.waitFor((s) => asking(s) && s.includes("proposed:"));
    expect(screen).toContain("plan.md +2 -0 (not applied yet)");
    expect(screen).toContain("│ 1 + step one");
    expect(screen).not.toContain("⎿ plan.md");
    await p.type("n");
    await p.press("Enter");
    // The long command wraps under the gutter: no line of the question starts at column 0.
    screen = await p.waitFor((s) => asking(s) && s.includes("printf"));
    const q = screen.slice(screen.lastIndexOf("? allow this command to run:"));
    const body = q.trimEnd().split("\n").slice(1, -1);
    expect(body.length).toBeGreaterThan(2);
    for (const l of body) expect(l.startsWith("  ")).toBe(true);
    await p.press("Escape");
    screen = await p.screen({ history: true });
    await p.waitFor("cancel");
    screen = await p.screen({ history: true });
    expect(screen).not.toContain("proposed:");
    expect(screen).not.toContain("1 + step one");
    expect(existsSync(join(live.rig?.workspace ?? "", "plan.md"))).toBe(false);
  },
  PTY_TEST_MS,
);
