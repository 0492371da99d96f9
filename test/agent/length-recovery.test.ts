// Length recovery through the real binary: a reply stopped by the output limit is continued automatically,
// a bounded number of times, and the user is told each time (stderr in print mode, a notice in --json).
import { afterEach, expect, test } from "bun:test";
import { CONTINUE_PROMPT, MAX_LENGTH_CONTINUATIONS } from "../../src/agent/loop.ts";
import { events, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function lastUserText(body: unknown): string {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

test("a reply cut off by the output limit is continued and the parts are joined", async () => {
  rig = await makeRig({
    script: [{ text: "The answer, part one; ", stop: "length" }, { text: "part two." }],
  });
  const r = await rig.run(["-p", "explain"]);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe("The answer, part one; part two.");
  expect(r.stderr).toContain(
    `the reply reached the output limit; asking the model to continue it (1/${MAX_LENGTH_CONTINUATIONS})`,
  );
  expect(rig.mock.requests.length).toBe(2);
  // The continuation request carries the cut-off reply and the core's request to go on.
  expect(lastUserText(rig.mock.requests[1]?.body)).toBe(CONTINUE_PROMPT);
  expect(JSON.stringify(rig.mock.requests[1]?.body)).toContain("The answer, part one; ");
});

test("continuations are bounded: after the last one the turn ends with what there is, and says so", async () => {
  const cut = Array.from({ length: MAX_LENGTH_CONTINUATIONS + 3 }, (_, i) => ({
    text: `p${i} `,
    stop: "length" as const,
  }));
  rig = await makeRig({ script: cut });
  const r = await rig.run(["-p", "explain", "--json"]);
  expect(r.code).toBe(0);
  expect(rig.mock.requests.length).toBe(MAX_LENGTH_CONTINUATIONS + 1);
  const evs = events(r.stdout);
  const notices = evs.filter((e) => e.type === "notice" && String(e.message).includes("output limit"));
  expect(notices.length).toBe(MAX_LENGTH_CONTINUATIONS + 1);
  expect(String(notices.at(-1)?.message)).toContain(
    `still cut off by the output limit after ${MAX_LENGTH_CONTINUATIONS}`,
  );
  expect(evs.at(-1)).toMatchObject({ type: "done", text: "p0 p1 p2 p3 " });
});
