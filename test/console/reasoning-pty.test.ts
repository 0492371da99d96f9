// The model's reasoning as a person sees it: one dim live line while it streams, then one collapsed
// line; Ctrl-O opens the last one; never part of the answer's text (on screen or saved); config.json
// `show_reasoning: false` hides it.
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import type { Pty } from "../helpers/pty.ts";
import { startConsole } from "./console-pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

const THOUGHT = "First I consider the question carefully. Then I weigh the options and pick the second one.";

test("reasoning streams dimmed on one line, collapses, opens with Ctrl-O, and is absent from the saved answer", async () => {
  ({ rig, pty } = await startConsole(
    [{ reasoning: THOUGHT, text: "The answer is two.", chunk_delay_ms: 40 }],
    {
      cols: 100,
    },
  ));
  const p = pty;
  await p.type("which one?");
  await p.press("Enter");
  // While it streams: the live line shows its latest words, dimmed (SGR 2).
  const live = await p.waitFor((s) => s.includes("reasoning") && s.includes("I consider"));
  expect(live).toContain("reasoning");
  const styled = await p.screen({ escapes: true });
  const ESC = String.fromCharCode(27);
  expect(styled).toMatch(new RegExp(`${ESC}\\[[0-9;]*2[0-9;]*m[^${ESC}]*consider`));
  const done = await p.waitFor("The answer is two.");
  expect(done).toMatch(/∴ reasoned for [\d.]+s · \d+ words · Ctrl-O shows it/);
  expect(done).not.toContain("pick the second one");
  await p.press("C-o");
  await p.waitFor("pick the second one");
  // Saved: the answer's text alone; the reasoning is kept beside it, not in it.
  const dir = join(rig.dataDir);
  const files = readdirSync(dir, { recursive: true }).map(String);
  const log = files.find((f) => f.endsWith("events.jsonl")) ?? "";
  const saved = readFileSync(join(dir, log), "utf8");
  const assistant = saved
    .split("\n")
    .filter((l) => l.includes('"role":"assistant"'))
    .map((l) => JSON.parse(l).message);
  expect(assistant.at(-1)?.content).toBe("The answer is two.");
  expect(assistant.at(-1)?.meta?.reasoning).toBe(THOUGHT);
  // The next request does not send it as the answer's text.
  expect(JSON.stringify(rig.mock.requests[0]?.body)).not.toContain("weigh the options");
}, 120_000);

test("show_reasoning false in config.json hides it", async () => {
  ({ rig, pty } = await startConsole([{ reasoning: THOUGHT, text: "The answer is two." }], {
    config: { show_reasoning: false },
  }));
  const screen = await (async () => {
    await pty.type("which one?");
    await pty.press("Enter");
    return pty.waitFor("The answer is two.");
  })();
  expect(screen).not.toContain("reasoned for");
  expect(screen).not.toContain("consider");
}, 120_000);
