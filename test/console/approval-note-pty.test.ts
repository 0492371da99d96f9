// The approval mode in force reaches the model: the system prompt states the mode the session started
// with; after Shift+Tab or /approve the next request carries a short note of the new mode (the system
// prompt unchanged), once; the note is kept in the session, so a resume tells the model nothing twice
// and replays it as the notice it was.
import { expect, test } from "bun:test";
import { liveConsole, send } from "./console-pty.ts";

const live = liveConsole();

type Body = { messages: { role: string; content: unknown }[] };
const NOTE = "the user changed the approval mode";
const notes = (body: unknown) =>
  (body as Body).messages
    .filter((m) => JSON.stringify(m.content).includes(NOTE))
    .map((m) => JSON.stringify(m.content));
const system = (body: unknown) => JSON.stringify((body as Body).messages[0]);

test("Shift+Tab and /approve reach the model as a note before the next request, once, and survive a resume", async () => {
  let { rig, pty } = await live.open(
    [1, 2, 3, 4, 5].map((n) => ({ text: `answer number ${n}` })),
    { args: ["--approve", "ask"], cols: 100, rows: 40 },
  );
  const p = pty;
  await send(p, "first");
  await p.waitFor("answer number 1");
  await p.press("BTab");
  await p.waitFor("accept edits");
  await send(p, "second");
  await p.waitFor("answer number 2");
  await send(p, "/approve all");
  await p.waitFor("approvals: allow all from the next call on");
  await send(p, "third");
  await p.waitFor("answer number 3");
  const [r1, r2, r3] = rig.mock.requests.map((r) => r.body);
  expect(system(r1)).toContain("- Approvals: ask:");
  expect(notes(r1)).toEqual([]);
  expect(notes(r2)).toHaveLength(1);
  expect(notes(r2)[0]).toContain("approvals: edits:");
  // The system prompt (the cached prefix) is the one the session started with.
  expect(system(r2)).toBe(system(r1));
  expect(notes(r3)).toHaveLength(2);
  expect(notes(r3)[1]).toContain("approvals: all:");
  await send(p, "/exit");
  await p.waitExit();
  await p.close();
  // Resumed under the same mode: the model is told nothing more; the replay shows the switches as notices.
  pty = await live.reopen(["-c", "--approve", "all"], { cols: 100, rows: 40 });
  const replayed = await pty.waitFor("resumed: the conversation continues here");
  expect(replayed).toContain("approvals: accept edits");
  expect(replayed).not.toContain(`› [Not a message from the user`);
  await send(pty, "fourth");
  await pty.waitFor("answer number 4");
  expect(notes(rig.mock.requests[3]?.body)).toHaveLength(2);
  await send(pty, "/exit");
  await pty.waitExit();
  await pty.close();
  // Resumed under another mode: told before the next request.
  pty = await live.reopen(["-c", "--approve", "none"], { cols: 100, rows: 40 });
  await pty.waitFor("resumed: the conversation continues here");
  await send(pty, "fifth");
  await pty.waitFor("answer number 5");
  const last = notes(rig.mock.requests[4]?.body);
  expect(last).toHaveLength(3);
  expect(last[2]).toContain("approvals: none, read-only");
}, 120_000);

test("a switch while a tool call waits for its answer is told with the next request of the same turn", async () => {
  const { rig, pty } = await live.open(
    [{ tool_calls: [{ name: "bash", arguments: { command: "git status" } }] }, { text: "reply number 2" }],
    { args: ["--approve", "ask"], cols: 100, rows: 30 },
  );
  const p = pty;
  await send(p, "go");
  await p.waitFor((s) => s.trimEnd().endsWith("allow? ›"));
  await p.press("BTab");
  await p.waitFor("accept edits");
  await p.type("y");
  await p.waitFor("reply number 2");
  const second = rig.mock.requests[1]?.body as Body;
  // After the call's result, before the model goes on: the note, in the turn it was made in.
  const tail = second.messages.slice(-2).map((m) => m.role);
  expect(tail).toEqual(["tool", "user"]);
  expect(notes(second)).toHaveLength(1);
  expect(notes(second)[0]).toContain("approvals: edits:");
}, 120_000);

test("a switch before the first request: the note goes first, the title is still the request", async () => {
  const { rig, pty } = await live.open([{ text: "reply number 1" }], {
    args: ["--approve", "ask"],
    cols: 100,
    rows: 30,
  });
  const p = pty;
  await p.press("BTab");
  await p.waitFor("accept edits");
  await send(p, "fix the flaky test");
  await p.waitFor("reply number 1");
  const status = await p.waitFor((s) => s.includes("accept edits · fix the flaky test"));
  expect(status).not.toContain("Not a message");
  const first = rig.mock.requests[0]?.body as Body;
  expect(first.messages.map((m) => m.role)).toEqual(["system", "user", "user"]);
  expect(notes(first)).toHaveLength(1);
}, 120_000);
