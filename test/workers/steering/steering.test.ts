import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSteeringModule, queueFromArgv } from "../../../workers/steering/index.ts";
import { DeliveredFile, deliveredPath } from "../../../workers/steering/queue.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let dir: string;
let queue: string;
let worker: WorkerClient;

const line = (id: string, text: string) => `${JSON.stringify({ id, text })}\n`;

beforeEach(() => {
  dir = tempDir("i-steering-");
  queue = join(dir, "queue.jsonl");
  worker = inProcess(createSteeringModule(queue));
});

afterEach(async () => {
  await worker.close();
  removeDir(dir);
});

async function steer(data: Record<string, unknown> = {}) {
  return worker.request("steer", data, dir);
}
async function texts(data: Record<string, unknown> = {}): Promise<string[]> {
  const reply = await steer(data);
  if (reply.error) throw new Error(reply.error);
  return ((reply.data?.messages ?? []) as { text: string }[]).map((m) => m.text);
}
async function restart(): Promise<void> {
  await worker.close();
  worker = inProcess(createSteeringModule(queue));
}

describe("queueFromArgv", () => {
  test("reads --queue PATH and --queue=PATH, resolved", () => {
    expect(queueFromArgv(["bun", "main.ts", "worker", "steering", "--queue", "/q/a.jsonl"])).toBe(
      "/q/a.jsonl",
    );
    expect(queueFromArgv(["x", "--queue=/q/b.jsonl"])).toBe("/q/b.jsonl");
    expect(queueFromArgv(["x", "--queue"])).toBeUndefined();
    expect(queueFromArgv(["x"])).toBeUndefined();
  });
});

describe("steer", () => {
  test("no queue file yet: data unchanged", async () => {
    const data = { messages: [], other: 1 };
    expect((await steer(data)).data).toEqual(data);
  });

  test("returns queued messages once each, appended to existing ones, other fields kept", async () => {
    writeFileSync(queue, line("a", "first") + line("b", "second"));
    const reply = await steer({ messages: [{ id: "core", text: "already" }], turn: 3 });
    expect(reply.data).toEqual({
      messages: [
        { id: "core", text: "already" },
        { id: "a", text: "first" },
        { id: "b", text: "second" },
      ],
      turn: 3,
    });
    expect(await texts()).toEqual([]);
    appendFileSync(queue, line("c", "third"));
    expect(await texts()).toEqual(["third"]);
    expect(await texts()).toEqual([]);
  });

  test("the delivered offset is on disk when the reply arrives", async () => {
    writeFileSync(queue, line("a", "x"));
    await steer();
    const state = DeliveredFile.parse(JSON.parse(readFileSync(deliveredPath(queue), "utf8")));
    expect(state.offset).toBe(Buffer.byteLength(line("a", "x")));
    expect(state.ids).toEqual(["a"]);
  });

  test("a torn last line is delivered only once it is complete", async () => {
    const full = line("t", "typed while the turn ran — ünïcode");
    const cut = Buffer.from(full).length - 12; // inside the text, possibly inside a multi-byte char
    writeFileSync(
      queue,
      Buffer.concat([Buffer.from(line("a", "whole")), Buffer.from(full).subarray(0, cut)]),
    );
    expect(await texts()).toEqual(["whole"]);
    expect(await texts()).toEqual([]);
    await restart();
    expect(await texts()).toEqual([]);
    appendFileSync(queue, Buffer.from(full).subarray(cut));
    expect(await texts()).toEqual(["typed while the turn ran — ünïcode"]);
    expect(await texts()).toEqual([]);
  });

  test("no loss and no duplication across a worker restart mid-queue", async () => {
    writeFileSync(queue, line("1", "one") + line("2", "two"));
    expect(await texts()).toEqual(["one", "two"]);
    appendFileSync(queue, line("3", "three"));
    await restart();
    appendFileSync(queue, line("4", "four"));
    expect(await texts()).toEqual(["three", "four"]);
    await restart();
    expect(await texts()).toEqual([]);
    appendFileSync(queue, line("5", "five"));
    expect(await texts()).toEqual(["five"]);
  });

  test("a line written twice with one id is delivered once; malformed lines are skipped and logged", async () => {
    writeFileSync(
      queue,
      `${line("a", "x")}${line("a", "x")}not json\n{"id":"","text":"empty id"}\n${line("b", "y")}`,
    );
    expect(await texts()).toEqual(["x", "y"]);
    expect(worker.log()).toContain("skipping a malformed queue line: not json");
  });

  test("a queue that shrank is reread from the start without repeating delivered ids", async () => {
    writeFileSync(queue, line("a", "old one") + line("b", "old two"));
    expect(await texts()).toEqual(["old one", "old two"]);
    writeFileSync(queue, line("b", "old two") + line("c", "new"));
    expect(await texts()).toEqual(["new"]);
  });

  test("errors: no queue configured, bad messages field, damaged state file", async () => {
    const none = inProcess(createSteeringModule(undefined));
    expect((await none.request("steer", {}, dir)).error).toContain("start the worker with --queue PATH");
    await none.close();
    expect((await steer({ messages: "x" })).error).toContain("data.messages must be an array");
    writeFileSync(deliveredPath(queue), "{oops");
    writeFileSync(queue, line("a", "x"));
    const reply = await steer();
    expect(reply.error).toContain(deliveredPath(queue));
    expect(readFileSync(deliveredPath(queue), "utf8")).toBe("{oops");
  });
});
