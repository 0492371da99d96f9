// The console's input side in a real pseudo-terminal (tmux) against the mock model: bracketed paste,
// Ctrl-C in each state, approvals, steering order across a cancel, exit.
import { afterEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { consoleIn, Pty } from "../helpers/pty.ts";
import { type ConsoleOptions, startConsole } from "./console-pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

/** Generous: tmux, the CLI and its workers share two busy cores with everything else. */
const PTY_TEST_MS = 120_000;

async function consoleWith(script: MockStep[], opts: ConsoleOptions = {}): Promise<Pty> {
  ({ rig, pty } = await startConsole(script, opts));
  return pty;
}

const body = (i: number) => JSON.stringify(rig?.mock.requests[i]?.body ?? null);

/** The text of the user messages of request `i`, in order. */
function userTexts(i: number): string[] {
  const msgs =
    (rig?.mock.requests[i]?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? [];
  return msgs
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

test(
  "a 3-line bracketed paste is exactly one request with all three lines",
  async () => {
    const p = await consoleWith([{ text: "got all three" }, { text: "never" }]);
    await p.paste("line one\nline two\nline three");
    await p.waitFor("line three");
    await p.press("Enter");
    await p.waitFor("got all three");
    expect(rig?.mock.requests).toHaveLength(1);
    expect(body(0)).toContain("line one\\nline two\\nline three");
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-C with a draft empties the line and keeps i running; twice on an empty prompt exits, below the prompt",
  async () => {
    const p = await consoleWith([{ text: "the answer" }]);
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
    const p = await consoleWith(
      [{ tool_calls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "after" }],
      { args: ["--approve", "ask"] },
    );
    await p.type("make a file");
    await p.press("Enter");
    await p.waitFor("allow? ›");
    await p.press("C-c");
    await p.waitFor(/⊘ not run · .*\n.*refused: the user cancelled the turn at the approval prompt/);
    await p.waitFor("cancelled; the model will see that it was interrupted");
    expect(existsSync(join(rig?.workspace ?? "", "ran.txt"))).toBe(false);
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
    const p = await consoleWith(
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
    expect(existsSync(join(rig?.workspace ?? "", "ran.txt"))).toBe(true);
    expect(body(1)).toContain("please also update the docs");
  },
  PTY_TEST_MS,
);

test(
  "steering lines keep the order typed, exactly once, across a Ctrl-C",
  async () => {
    const p = await consoleWith([
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
    expect(rig?.mock.requests).toHaveLength(2);
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
    rig = await makeRig({ script: [{ text: "the capital is Paris" }, { text: "welcome back" }] });
    const first = await rig.run(["-p", "what is the capital of France?"]);
    expect(first.code).toBe(0);
    pty = await Pty.start(consoleIn(rig, ["-c"]));
    const screen = await pty.waitFor("the conversation continues here");
    expect(screen).toContain("› what is the capital of France?");
    expect(screen).toContain("the capital is Paris");
  },
  PTY_TEST_MS,
);

test(
  "/resume opens a picker: arrows move, typing filters, Enter resumes the marked session, Esc leaves",
  async () => {
    rig = await makeRig({
      script: [{ text: "the capital is Paris" }, { text: "seven" }, { text: "Berlin" }],
    });
    expect((await rig.run(["-p", "what is the capital of France?"])).code).toBe(0);
    expect((await rig.run(["-p", "name a prime number"])).code).toBe(0);
    pty = await Pty.start(consoleIn(rig));
    const p = pty;
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
    const last = JSON.stringify(rig.mock.requests.at(-1)?.body);
    expect(last).toContain("what is the capital of France?");
    expect(last).toContain("and Germany?");
    expect(last).not.toContain("name a prime number");
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-C during /compact cancels the compaction within a second and the console stays",
  async () => {
    rig = await makeRig({
      script: [
        { text: "words ".repeat(300) },
        { text: "## Goal\nnever arrives", delay_ms: 60_000 },
        { text: "still here" },
      ],
    });
    writeFileSync(join(rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 1 }));
    pty = await Pty.start(consoleIn(rig));
    const p = pty;
    await p.waitFor("Ctrl-C cancels");
    await p.type("one");
    await p.press("Enter");
    await p.waitFor("words words");
    await p.waitFor(() => (rig?.mock.requests.length ?? 0) === 1);
    await p.type("/compact");
    await p.press("Enter");
    await p.waitFor(() => (rig?.mock.requests.length ?? 0) === 2);
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
    const p = await consoleWith([{ text: "first answer" }, { text: "second answer" }]);
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
    expect(JSON.stringify(rig?.mock.requests[1]?.body)).not.toContain("first answer");
  },
  PTY_TEST_MS,
);

test(
  "TERM=dumb (plain lines): Ctrl-D at the prompt exits with the exit line on a line of its own",
  async () => {
    rig = await makeRig({ script: [{ text: "plain answer" }] });
    pty = await Pty.start(consoleIn(rig, [], { term: "dumb" }));
    await pty.waitFor("Ctrl-C cancels");
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
    rig = await makeRig({ script: [{ text: "never reached" }] });
    writeFileSync(
      join(rig.configDir, "bindings.json"),
      JSON.stringify({ budget: misbehaving("budget", "hang") }),
    );
    pty = await Pty.start(consoleIn(rig));
    const p = pty;
    await p.waitFor("Ctrl-C cancels");
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
    const r = await makeRig({ script: [{ text: "pasted ok" }, { text: "second run" }] });
    rig = r;
    const start = () => Pty.start(consoleIn(r));
    pty = await start();
    await pty.waitFor("Ctrl-C cancels");
    const lines = Array.from({ length: 10 }, (_, i) => `pasted line ${i + 1}`);
    await pty.type("look: ");
    await pty.paste(lines.join("\n"));
    await pty.waitFor("look: [pasted 10 lines]");
    await pty.press("Enter");
    await pty.waitFor("pasted ok");
    expect(JSON.stringify(r.mock.requests[0]?.body)).toContain(`look: ${lines.join("\\n")}`);
    await pty.press("C-d");
    await pty.waitExit();
    await pty.close();
    pty = await start();
    await pty.waitFor("Ctrl-C cancels");
    await pty.press("Up");
    await pty.waitFor("pasted line 10");
  },
  PTY_TEST_MS,
);
