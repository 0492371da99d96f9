// Real processes: the steering worker started as the console starts it (`i worker steering --queue PATH`),
// killed mid-queue and restarted by the WorkerHost, loses and repeats nothing.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import type { ObservedHost } from "../../helpers/observed-host.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let queue: string;
let host: ObservedHost;

const line = (id: string, text: string) => `${JSON.stringify({ id, text })}\n`;

beforeEach(() => {
  root = tempDir("i-steering-proc-");
  queue = join(root, "queue.jsonl");
  mkdirSync(join(root, "config"));
  host = hostFor(["steering"], {
    configDir: join(root, "config"),
    workspace: root,
    dataDir: join(root, "data"),
    queue,
  });
});

afterEach(async () => {
  await host.close();
  removeDir(root);
});

async function steered(): Promise<string[]> {
  const data = await host.runHook("steer", { messages: [] });
  return (data.messages as { text: string }[]).map((m) => m.text);
}

test("a killed worker's successor delivers the rest of the queue, once, including a completed torn line", async () => {
  appendFileSync(queue, line("1", "one") + line("2", "two"));
  expect(await steered()).toEqual(["one", "two"]);
  const firstPid = host.pidOf("steering");
  expect(firstPid).toBeGreaterThan(0);

  const torn = line("4", "four");
  appendFileSync(queue, line("3", "three") + torn.slice(0, 7));
  process.kill(firstPid as number, "SIGKILL");
  // A request sent before the host notices the death would fail (and is never replayed): wait for it.
  while (host.pidOf("steering") === firstPid) await new Promise((r) => setTimeout(r, 10));

  expect(await steered()).toEqual(["three"]);
  expect(host.pidOf("steering")).not.toBe(firstPid);
  expect(await steered()).toEqual([]);
  appendFileSync(queue, torn.slice(7));
  expect(await steered()).toEqual(["four"]);
  expect(await steered()).toEqual([]);
});
