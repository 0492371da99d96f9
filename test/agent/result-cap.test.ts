// One tool result is held to a share of the model's window: a 70 KB read on a 12k-token model is
// shortened (with a note) and the next turn succeeds; a saved session that already holds an oversized
// result is shortened when it is resumed, and the full output stays recoverable from its folder.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resultTokenCap } from "../../src/agent/result-cap.ts";
import type { History } from "../../src/contract/history.ts";
import { textTokens } from "../../src/lib/estimator.ts";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const WINDOW = 12_000;
const CAP = resultTokenCap({ context_window: WINDOW, max_output_tokens: 4096 });
// 70 KB of varied lines (about 17 500 estimated tokens: more than the whole window).
const BIG = Array.from(
  { length: 1400 },
  (_, i) => `line ${i} ${"lorem ipsum dolor sit amet ".repeat(1)}${i * 7919}`,
)
  .join("\n")
  .padEnd(70_000, "z");

function toolMessages(body: unknown): string[] {
  const msgs = (body as { messages: { role: string; content: unknown }[] }).messages;
  return msgs
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** A saved session of this rig whose tool result (BIG) is too large for WINDOW, then `more`. */
function savedWithBigResult(r: Rig, more: History = []): Session {
  const s = Session.create({
    dataDir: r.dataDir,
    workspace: r.workspace,
    provider: "openai",
    model: "mock-model",
  });
  s.checkpoint([
    { role: "system", content: "you are a test" },
    { role: "user", content: "read big.txt" },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c1", name: "read", arguments: '{"path":"big.txt"}' }],
    },
    { role: "tool", tool_call_id: "c1", content: BIG },
    ...more,
  ]);
  return s;
}

test("a 70 KB read on a 12k-window model is shortened with a note, and the next turn succeeds", async () => {
  rig = await makeRig({
    contextWindow: WINDOW,
    files: { "big.txt": BIG },
    script: [{ tool_calls: [{ name: "read", arguments: { path: "big.txt" } }] }, { text: "read it" }],
  });
  const r = await rig.run(["-p", "read big.txt"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("read it\n");
  const [result] = toolMessages(rig.mock.requests[1]?.body);
  expect(result).toContain("output shortened to fit the model's context window");
  expect(textTokens(result as string)).toBeLessThanOrEqual(CAP);
  expect(result).toContain("line 0 ");
});

test("resuming a session whose last tool result is too big: shortened, the next turn succeeds, the log keeps it all", async () => {
  rig = await makeRig({ contextWindow: WINDOW, script: [{ text: "carried on" }] });
  const s = savedWithBigResult(rig);
  const r = await rig.run(["-p", "go on", "-c"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("carried on\n");
  expect(r.stderr).toContain("shortened 1 tool result(s) too large for mock-model's context window");
  const [result] = toolMessages(rig.mock.requests[0]?.body);
  expect(textTokens(result as string)).toBeLessThanOrEqual(CAP);
  // Nothing lost: the full output is still in the session's log.
  expect(readFileSync(join(s.dir, "events.jsonl"), "utf8")).toContain(BIG.slice(-2000));
});

test("`i compact` on a saved session whose tool result is too big: shortened first, then compacted; the log keeps it all", async () => {
  rig = await makeRig({ contextWindow: WINDOW, script: [{ text: "SUMMARY: the user read big.txt" }] });
  const turns: History = [1, 2, 3].flatMap((n) => [
    { role: "user" as const, content: `question ${n}` },
    { role: "assistant" as const, content: `answer ${n}` },
  ]);
  const s = savedWithBigResult(rig, [{ role: "assistant", content: "read it" }, ...turns]);
  const r = await rig.run(["compact", "-r", s.id]);
  expect(r.stderr).toContain("shortened 1 tool result(s) too large for mock-model's context window");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`^compacted session ${s.id}: \\d+ → \\d+ tokens \\(model summary\\)`));
  // The one model request is the summary, and what it was shown fits the window.
  expect(rig.mock.requests.length).toBe(1);
  const sent = JSON.stringify(rig.mock.requests[0]?.body);
  expect(sent).toContain("output shortened to fit the model's context window");
  expect(sent).not.toContain(BIG.slice(-2000));
  const after = JSON.parse(readFileSync(join(s.dir, "history.json"), "utf8")) as { content: unknown }[];
  expect(JSON.stringify(after)).toContain("SUMMARY: the user read big.txt");
  // Nothing lost: the full output is still in the session's log.
  expect(readFileSync(join(s.dir, "events.jsonl"), "utf8")).toContain(BIG.slice(-2000));
});
