// serve's `idle` option on stdio: called once every request read so far has been answered, before the
// loop waits for more (the built-in worker collects its garbage there), never in the middle of a batch
// and never before the first request (a worker's start is not delayed by it).
import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";

const WORKER = join(import.meta.dirname, "..", "..", "fixtures", "workers", "idle-worker.ts");
const request = (id: number) =>
  `${JSON.stringify({ id, event: "system_prompt", workspace: "/tmp", data: { system: `s${id}`, workspace: "/tmp" } })}\n`;

test("idle follows each batch of answers, at most once per request", async () => {
  const child = spawn(process.execPath, [WORKER], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const replies = () => out.split("\n").filter(Boolean).length;
  const idles = () => err.split("\n").filter((l) => l === "idle").length;
  // Started and waiting, nothing answered yet: no idle call.
  await new Promise((r) => setTimeout(r, 300));
  const atStart = idles();
  expect(atStart).toBe(0);
  child.stdin.write(request(1) + request(2) + request(3));
  await until(() => replies() === 3 && idles() > atStart);
  expect(replies()).toBe(3);
  const afterBatch = idles() - atStart;
  expect(afterBatch).toBeGreaterThanOrEqual(1);
  expect(afterBatch).toBeLessThanOrEqual(3);
  child.stdin.write(request(4));
  await until(() => replies() === 4 && idles() > atStart + afterBatch);
  expect(idles()).toBe(atStart + afterBatch + 1);
  for (const [i, line] of out.trim().split("\n").entries()) expect(JSON.parse(line).id).toBe(i + 1);
  child.stdin.end();
  await new Promise((r) => child.on("exit", r));
});
