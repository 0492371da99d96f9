// Pasting the path of a FIFO named like an image, as a person does in the real console: one line says
// what it is, at once, and the console goes on answering (before, the blocking open froze it for good).
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();
const vision = {
  models: { "mock-model": { context_window: 100_000, max_output_tokens: 4096, images: "keep" } },
};

test("a pasted FIFO path is one line at once; the console still answers", async () => {
  const { rig, pty } = await live.open([{ text: "still here" }], { config: vision });
  const fifo = join(rig.root, "shot.png");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  await pty.paste(fifo);
  await pty.waitFor("is a FIFO (named pipe), not a file");
  await pty.type("hello");
  await pty.press("Enter");
  await pty.waitFor("still here");
  expect(rig.mock.requests).toHaveLength(1);
}, 60_000);
