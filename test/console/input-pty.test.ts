// The console's input side in a real pseudo-terminal (tmux) against the mock model: bracketed paste,
// Ctrl-C in each state, approvals, steering order across a cancel, exit.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeRig } from "../agent/rig.ts";
import { liveConsole, PTY_TEST_MS } from "./console-pty.ts";

const live = liveConsole();

const body = (i: number) => JSON.stringify(live.rig?.mock.requests[i]?.body ?? null);

/** The text of the user messages of request `i`, in order. */
function userTexts(i: number): string[] {
  const msgs =
    (live.rig?.mock.requests[i]?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? [];
  return msgs
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

test(
  "a 3-line bracketed paste is exactly one request with all three lines",
  async () => {
    const p = await live.start([{ text: "got all three" }, { text: "never" }]);
    await p.paste("line one\nline two\nline three");
    await p.waitFor("line three");
    await p.press("Enter");
    await p.waitFor("got all three");
    expect(live.rig?.mock.requests).toHaveLength(1);
    expect(body(0)).toContain("line one\\nline two\\nline three");
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-C with a draft empties the line and keeps i running; twice on an empty prompt exits, below the prompt",
  async () => {
    const p = await live.start([{ text: "the answer" }]);
    await p.type("a draft I regret");
    await p.waitFor("a draft I regret");
    await p.press("C-c");
    await p.waitFor((s) => !s.includes("a draft I regret"));
    expect(await p.exited()).toBe(false);
    await p.type("real question");
    await p.press("Enter");
    await p.waitFor("the answer");
    await p.press("C-c");
    await p.waitFor("press Ctrl-C again to exit");
    expect(await p.exited()).toBe(false);
    await p.press("C-c");
    await p.waitExit();
    const screen = await p.screen();
    // the exit line is on a line of its own, never after the prompt
    expect(screen).toMatch(/\nsession \S+ saved · resume with: i -r\s+\S+/);
    expect(screen).not.toMatch(/›[^\n]*session \S+ saved/);
    expect(body(0)).toContain("real question");
    expect(body(0)).not.toContain("regret");
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-C at the approval prompt: nothing runs, the turn ends, the prompt is back and i is alive",
  async () => {
    const p = await live.start(
      [{ tool_calls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "after" }],
      { args: ["--approve", "ask"] },
    );
    await p.type("make a file");
    await p.press("Enter");
    await p.waitFor("allow? ›");
    await p.press("C-c");
    await p.waitFor(/⊘ not run · .*\n.*refused: the user cancelled the turn at the approval prompt/);
    await p.waitFor("cancelled; the model will see that it was interrupted");
    expect(existsSync(join(live.rig?.workspace ?? "", "ran.txt"))).toBe(false);
    expect(await p.exited()).toBe(false);
    // the prompt is back: a new message goes through (the script's next step answers it)
    await p.type("ok then");
    await p.press("Enter");
    await p.waitFor("after");
    const sent = body(1);
    expect(sent).toContain("cancelled the turn at the approval prompt");
    expect(sent).toContain("interrupted by the user");
  },
  PTY_TEST_MS,
);

test(
  "approval answers: a line that is not an answer is queued for the model, then y runs the command",
  async () => {
    const p = await live.start(
      [{ tool_calls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "done" }],
      { args: ["--approve", "ask"] },
    );
    await p.type("make a file");
    await p.press("Enter");
    await p.waitFor("allow? ›");
    await p.type("please also update the docs");
    await p.press("Enter");
    await p.waitFor("that is not an answer");
    await p.type("y");
    await p.press("Enter");
    await p.waitFor("done");
    expect(existsSync(join(live.rig?.workspace ?? "", "ran.txt"))).toBe(true);
    expect(body(1)).toContain("please also update the docs");
  },
  PTY_TEST_MS,
);

test(
  "steering lines keep the order typed, exactly once, across a Ctrl-C",
  async () => {
    const p = await live.start([
      { text: "a slow reply that never ends", chunk_delay_ms: 100, hang: true },
      { text: "all caught up" },
    ]);
    await p.type("start");
    await p.press("Enter");
    await p.waitFor("a slow");
    for (const line of ["first", "second"]) {
      await p.type(line);
      await p.press("Enter");
      await p.waitFor(`queued for the model at the next safe point: ${line}`);
    }
    await p.press("Escape");
    await p.waitFor("cancelled; the model will see that it was interrupted");
    await p.type("third");
    await p.press("Enter");
    await p.waitFor("all caught up");
    expect(live.rig?.mock.requests).toHaveLength(2);
    const users = userTexts(1);
    const tail = users.slice(users.indexOf("start"));
    expect(tail[0]).toBe("start");
    expect(tail.slice(2)).toEqual(["first", "second", "third"]);
    expect(tail[1]).toContain("interrupted by the user");
  },
  PTY_TEST_MS,
);

test(
  "a resumed session shows its earlier exchange on the terminal",
  async () => {
    live.rig = await makeRig({ script: [{ text: "the capital is Paris" }, { text: "welcome back" }] });
    const first = await live.rig.run(["-p", "what is the capital of France?"]);
    expect(first.code).toBe(0);
    live.pty = await live.reopen(["-c"]);
    const screen = await live.pty.waitFor("the conversation continues here");
    expect(screen).toContain("› what is the capital of France?");
    expect(screen).toContain("the capital is Paris");
  },
  PTY_TEST_MS,
);

test(
  "/resume opens a picker: arrows move, typing filters, Enter resumes the marked session, Esc leaves",
  async () => {
    live.rig = await makeRig({
      script: [{ text: "the capital is Paris" }, { text: "seven" }, { text: "Berlin" }],
    });
    expect((await live.rig.run(["-p", "what is the capital of France?"])).code).toBe(0);
    expect((await live.rig.run(["-p", "name a prime number"])).code).toBe(0);
    live.pty = await live.reopen([]);
    const p = live.pty;
    await p.waitFor("Ctrl-C cancels");
    await p.type("/resume");
    await p.press("Enter");
    let screen = await p.waitFor("resume a session of this workspace");
    // Newest first, the newest marked; both titles on screen.
    expect(screen).toMatch(/› name a prime number/);
    expect(screen).toMatch(/ {2}what is the capital of France\?/);
    await p.press("Escape");
    await p.waitFor("no session chosen");
    await p.type("/resume");
    await p.press("Enter");
    await p.waitFor("resume a session of this workspace");
    await p.press("Down");
    await p.waitFor(/› what is the capital of France\?/);
    await p.press("Up");
    await p.waitFor(/› name a prime number/);
    await p.type("capital");
    screen = await p.waitFor("filter: capital");
    expect(screen).not.toContain("name a prime number");
    expect(screen).toMatch(/› what is the capital of France\?/);
    await p.press("Enter");
    screen = await p.waitFor("the conversation continues here");
    expect(screen).toContain("the capital is Paris");
    await p.type("and Germany?");
    await p.press("Enter");
    await p.waitFor("Berlin");
    const last = JSON.stringify(live.rig.mock.requests.at(-1)?.body);
    expect(last).toContain("what is the capital of France?");
    expect(last).toContain("and Germany?");
    expect(last).not.toContain("name a prime number");
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-C during /compact cancels the compaction within a second and the console stays",
  async () => {
    const p = await live.start(
      [
        { text: "words ".repeat(300) },
        { text: "## Goal\nnever arrives", delay_ms: 60_000 },
        { text: "still here" },
      ],
      { configFiles: { "compact.json": JSON.stringify({ keep_recent: 1 }) } },
    );
    await p.type("one");
    await p.press("Enter");
    await p.waitFor("words words");
    await p.waitFor(() => (live.rig?.mock.requests.length ?? 0) === 1);
    await p.type("/compact");
    await p.press("Enter");
    await p.waitFor(() => (live.rig?.mock.requests.length ?? 0) === 2);
    const started = Date.now();
    await p.press("C-c");
    await p.waitFor("compaction cancelled; the conversation is unchanged");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await p.exited()).toBe(false);
    await p.type("three");
    await p.press("Enter");
    await p.waitFor("still here");
  },
  PTY_TEST_MS,
);

test(
  "/clear starts a fresh session on a cleared screen; /new keeps the screen",
  async () => {
    const p = await live.start([{ text: "first answer" }, { text: "second answer" }]);
    await p.type("hello");
    await p.press("Enter");
    await p.waitFor("first answer");
    await p.type("/clear");
    await p.press("Enter");
    const screen = await p.waitFor("new session");
    await p.waitFor((s) => !s.includes("first answer"), { history: false });
    expect(screen).toBeTruthy();
    await p.type("again");
    await p.press("Enter");
    await p.waitFor("second answer");
    // the fresh session does not carry the first exchange
    expect(JSON.stringify(live.rig?.mock.requests[1]?.body)).not.toContain("first answer");
    // A resize prints the finished lines again: those of the cleared screen are not among them.
    await p.resize(64, 24);
    await p.waitFor((s) => s.includes("second answer") && !s.includes("first answer"), { history: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(await p.screen({ history: true })).not.toContain("first answer");
  },
  PTY_TEST_MS,
);

test(
  "TERM=dumb (plain lines): Ctrl-D at the prompt exits with the exit line on a line of its own",
  async () => {
    const pty = await live.start([{ text: "plain answer" }], { term: "dumb" });
    await pty.type("hi");
    await pty.press("Enter");
    await pty.waitFor("plain answer");
    await pty.press("C-d");
    await pty.waitExit();
    const screen = await pty.screen();
    expect(screen).toMatch(/\nsession \S+ saved · resume with: i -r\s+\S+/);
    expect(screen).not.toMatch(/›[^\n]*session \S+ saved/);
  },
  PTY_TEST_MS,
);

test(
  "a turn stuck in a worker that ignores the cancel: the third Ctrl-C quits at once",
  async () => {
    const { misbehaving } = await import("../worker/helpers.ts");
    const p = await live.start([{ text: "never reached" }], {
      configFiles: { "bindings.json": JSON.stringify({ budget: misbehaving("budget", "hang") }) },
    });
    await p.type("hello");
    await p.press("Enter");
    await p.waitFor("› hello");
    await p.press("C-c");
    await p.waitFor("cancelling…");
    await p.press("C-c");
    await p.waitFor("still stopping… press Ctrl-C again to quit at once");
    expect(await p.exited()).toBe(false);
    await p.press("C-c");
    await p.waitExit(15_000);
    expect(await p.screen()).toContain("quitting without waiting; the session is saved up to its last step");
  },
  PTY_TEST_MS,
);

test(
  "a long paste shows as [pasted N lines] and is sent whole; input history survives a restart",
  async () => {
    let { rig, pty } = await live.open([{ text: "pasted ok" }, { text: "second run" }]);
    const lines = Array.from({ length: 10 }, (_, i) => `pasted line ${i + 1}`);
    await pty.type("look: ");
    await pty.paste(lines.join("\n"));
    await pty.waitFor("look: [pasted 10 lines]");
    await pty.press("Enter");
    await pty.waitFor("pasted ok");
    expect(JSON.stringify(rig.mock.requests[0]?.body)).toContain(`look: ${lines.join("\\n")}`);
    await pty.press("C-d");
    await pty.waitExit();
    await pty.close();
    pty = await live.reopen([]);
    await pty.waitFor("Ctrl-C cancels");
    await pty.press("Up");
    await pty.waitFor("pasted line 10");
  },
  PTY_TEST_MS,
);
