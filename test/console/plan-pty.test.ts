// The model's plan as a person sees it: a checklist above the prompt that updates in place at each
// `plan` call, kept in the session and shown again after -c; in `i -p --json` it is the call's event.
import { expect, test } from "bun:test";
import { events, makeRig } from "../agent/rig.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

const plan = (done: number): MockStep => ({
  tool_calls: [
    {
      name: "plan",
      arguments: {
        steps: ["read the code", "write the fix", "run the tests"].map((step, i) => ({
          step,
          status: i < done ? "done" : i === done ? "in_progress" : "pending",
        })),
      },
    },
  ],
  delay_ms: 300,
});

test("the plan checklist updates in place above the prompt and reappears after -c", async () => {
  let pty = await live.start([plan(0), plan(2), { text: "fixed it" }], { cols: 100, rows: 30 });
  const p = pty;
  await p.type("fix the bug");
  await p.press("Enter");
  await p.waitFor("plan · 0 of 3 done");
  const screen = await p.waitFor("fixed it");
  const history = await p.screen({ history: true });
  // One checklist, as it is now: the first drawing was replaced, not left in the transcript.
  expect(history.split("plan · ").length - 1).toBe(1);
  expect(screen).toContain("plan · 2 of 3 done");
  expect(screen).toMatch(/☑ read the code[\s\S]*☑ write the fix[\s\S]*▸ run the tests/);
  // Above the prompt: the checklist comes after the reply, before the status line and the input.
  expect(screen.indexOf("plan · 2 of 3")).toBeGreaterThan(screen.indexOf("fixed it"));
  expect(history).toContain("⏺ plan 0 of 3 done");
  expect(history).toContain("⏺ plan 2 of 3 done");
  await p.type("/exit");
  await p.press("Enter");
  await p.waitExit();
  await p.close();
  pty = await live.reopen(["-c"], { cols: 100, rows: 30 });
  const resumed = await pty.waitFor("resumed: the conversation continues here");
  expect(resumed).toContain("plan · 2 of 3 done");
}, 120_000);

test("i -p --json has the plan in its tool_call event", async () => {
  live.rig = await makeRig({ script: [plan(1), { text: "ok" }] });
  const r = await live.rig.run(["-p", "--json", "go"]);
  expect(r.code).toBe(0);
  const call = events(r.stdout).find((e) => e.type === "tool_call" && e.name === "plan");
  expect(JSON.parse(String(call?.arguments)).steps[1]).toEqual({
    step: "write the fix",
    status: "in_progress",
  });
  const result = events(r.stdout).find((e) => e.type === "tool_result" && e.name === "plan");
  expect(result?.content).toContain("plan updated: 1 of 3 done");
}, 60_000);
