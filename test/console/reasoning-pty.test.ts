// The model's reasoning as a person sees it: one dim live line while it streams, then one collapsed
// line; Ctrl-O opens the last one; never part of the answer's text (on screen or saved); config.json
// `show_reasoning: false` hides it.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Pty } from "../helpers/pty.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

/** Polls the styled screen until `re` matches it (a single look can land as the live line changes). */
async function waitStyled(p: Pty, re: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const styled = await p.screen({ escapes: true });
    if (re.test(styled) || Date.now() > deadline) return styled;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The assistant messages of the session's event log, once one is there (at most 5 s). */
async function savedAssistant(
  dir: string,
): Promise<Array<{ content?: unknown; meta?: { reasoning?: string } }>> {
  for (let i = 0; ; i++) {
    const files = readdirSync(dir, { recursive: true }).map(String);
    const log = files.find((f) => f.endsWith("events.jsonl"));
    const lines = log ? readFileSync(join(dir, log), "utf8").split("\n") : [];
    const found = lines.filter((l) => l.includes('"role":"assistant"')).map((l) => JSON.parse(l).message);
    if (found.length > 0 || i >= 100) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const THOUGHT = "First I consider the question carefully. Then I weigh the options and pick the second one.";

test("reasoning streams dimmed on one line, collapses, opens with Ctrl-O, and is absent from the saved answer", async () => {
  const { rig, pty } = await live.open(
    [{ reasoning: THOUGHT, text: "The answer is two.", chunk_delay_ms: 40 }],
    {
      cols: 100,
    },
  );
  const p = pty;
  await p.type("which one?");
  await p.press("Enter");
  // While it streams: the live line shows its latest words, dimmed (SGR 2).
  const streaming = await p.waitFor((s) => s.includes("reasoning") && s.includes("I consider"));
  expect(streaming).toContain("reasoning");
  const ESC = String.fromCharCode(27);
  const dimmed = new RegExp(`${ESC}\\[[0-9;]*2[0-9;]*m[^${ESC}]*consider`);
  expect(await waitStyled(p, dimmed)).toMatch(dimmed);
  const done = await p.waitFor("The answer is two.");
  expect(done).toMatch(/∴ reasoned for [\d.]+s · \d+ words · Ctrl-O shows it/);
  expect(done).not.toContain("pick the second one");
  await p.press("C-o");
  await p.waitFor("pick the second one");
  // Saved: the answer's text alone; the reasoning is kept beside it, not in it.
  // The screen can show the answer a moment before its event is appended: wait for the line.
  const assistant = await savedAssistant(rig.dataDir);
  expect(assistant.at(-1)?.content).toBe("The answer is two.");
  expect(assistant.at(-1)?.meta?.reasoning).toBe(THOUGHT);
  // The next request does not send it as the answer's text.
  expect(JSON.stringify(rig.mock.requests[0]?.body)).not.toContain("weigh the options");
}, 120_000);

test("show_reasoning false in config.json hides it", async () => {
  const pty = await live.start([{ reasoning: THOUGHT, text: "The answer is two." }], {
    config: { show_reasoning: false },
  });
  const screen = await (async () => {
    await pty.type("which one?");
    await pty.press("Enter");
    return pty.waitFor("The answer is two.");
  })();
  expect(screen).not.toContain("reasoned for");
  expect(screen).not.toContain("consider");
}, 120_000);

test("Anthropic thinking: dimmed like other reasoning, not in the saved answer, sent back signed with its tool call", async () => {
  const thought = "The notes file should say which one; I will read it before answering.";
  let { rig, pty } = await live.open(
    [
      {
        reasoning: thought,
        text: "Reading the notes.",
        tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }],
        chunk_delay_ms: 40,
      },
      { reasoning: "It says two.", text: "The notes say two." },
      { reasoning: "Nothing changed.", text: "still two" },
    ],
    {
      cols: 100,
      provider: "anthropic",
      files: { "notes.txt": "two\n" },
      config: {
        models: { "mock-model": { context_window: 100_000, max_output_tokens: 8192, thinking_budget: 2048 } },
      },
    },
  );
  const p = pty;
  await p.type("which one?");
  await p.press("Enter");
  await p.waitFor((s) => s.includes("reasoning") && s.includes("notes file"));
  const ESC = String.fromCharCode(27);
  const dimmed = new RegExp(`${ESC}\\[[0-9;]*2[0-9;]*m[^${ESC}]*notes file`);
  expect(await waitStyled(p, dimmed)).toMatch(dimmed);
  const done = await p.waitFor("The notes say two.");
  expect(done).toMatch(/∴ reasoned for [\d.]+s/);
  expect(done).not.toContain("before answering");
  const files = readdirSync(rig.dataDir, { recursive: true }).map(String);
  const log = files.find((f) => f.endsWith("events.jsonl")) ?? "";
  const assistant = readFileSync(join(rig.dataDir, log), "utf8")
    .split("\n")
    .filter((l) => l.includes('"role":"assistant"'))
    .map((l) => JSON.parse(l).message);
  expect(assistant[0]?.content).toBe("Reading the notes.");
  expect(assistant[0]?.meta?.reasoning).toBe(thought);
  expect(assistant[0]?.adapter?.anthropic?.thinking?.[0]?.signature).toBeTruthy();
  // The second request sent the signed block back first in its turn (the mock checks the signature).
  const second = rig.mock.requests[1]?.body as { messages: { role: string; content: { type: string }[] }[] };
  const turn = second.messages.find((m) => m.role === "assistant");
  expect(turn?.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
  expect(JSON.stringify(rig.mock.requests[0]?.body)).toContain('"budget_tokens":2048');
  // Across a resume: saved with the message, sent back as they came (the mock checks the signature).
  await p.type("/exit");
  await p.press("Enter");
  await p.waitExit();
  await p.close();
  pty = await live.reopen(["-c"], { cols: 100, rows: 24 });
  await pty.waitFor("resumed: the conversation continues here");
  await pty.type("and now?");
  await pty.press("Enter");
  await pty.waitFor("still two");
  const third = rig.mock.requests[2]?.body as { messages: { role: string; content: { type: string }[] }[] };
  const first = third.messages.find((m) => m.role === "assistant");
  expect(first?.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
  expect(JSON.stringify(first?.content[0])).toContain("before answering");
}, 120_000);
