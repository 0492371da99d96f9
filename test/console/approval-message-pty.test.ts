// At an approval, y/a/n/s answer in one key, so a message for the model that starts with one of them is
// typed after Tab: the question says so in its answers line, Enter queues the message, the question
// still waits, and the model gets the message with the next request.
import { expect, test } from "bun:test";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

const asking = (s: string) => s.trimEnd().endsWith("allow? ›");

test("Tab at an approval opens a line for the model; a message starting with y is queued, not an answer", async () => {
  const { rig, pty } = await live.open(
    [{ tool_calls: [{ name: "bash", arguments: { command: "git status" } }] }, { text: "noted, all done" }],
    { args: ["--approve", "ask"], cols: 100, rows: 30 },
  );
  const p = pty;
  await p.type("go");
  await p.press("Enter");
  const question = await p.waitFor((s) => asking(s) && s.includes("│ git status"));
  expect(question).toContain("Tab tell the model something");
  // Esc on the Tab line goes back to the answers, nothing queued.
  await p.press("Tab");
  await p.waitFor("to the model (Enter queues it, Esc goes back) ›");
  await p.type("never mind");
  await p.press("Escape");
  await p.waitFor((s) => asking(s) && !s.includes("never mind"));
  await p.press("Tab");
  await p.waitFor("to the model (Enter queues it, Esc goes back) ›");
  await p.type("yes, and afterwards say noted");
  await p.press("Enter");
  const waiting = await p.waitFor((s) => s.includes("queued for the model; the question still waits"));
  // Still asking: neither the y nor the Enter answered.
  expect(
    asking(
      waiting
        .split("\n")
        .filter((l) => !l.includes("queued for the model"))
        .join("\n"),
    ),
  ).toBe(true);
  expect(waiting).not.toContain("⎿ exit");
  await p.type("y");
  await p.waitFor("noted, all done");
  const sent = JSON.stringify(rig.mock.requests[1]?.body);
  expect(sent).toContain("yes, and afterwards say noted");
  expect(sent).not.toContain("never mind");
}, 120_000);
