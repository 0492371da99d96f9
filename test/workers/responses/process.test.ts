// Real processes: `i worker responses` passes the handshake with exactly its registry declarations and serves
// both wire hooks through the WorkerHost; `i doctor --profile full` reports it ok.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { WorkerHost } from "../../../src/worker/host.ts";
import { removeDir, runCliAsync, tempDir } from "../../helpers/cli.ts";
import { hostFor, spawnWorker } from "../../helpers/worker-io.ts";

let root: string;
let configDir: string;
let host: WorkerHost | undefined;

beforeEach(() => {
  root = tempDir("i-responses-proc-");
  configDir = join(root, "config");
  mkdirSync(configDir, { recursive: true });
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  removeDir(root);
});

test("hello declares exactly wire_request and wire_response and no tools; other events come back unchanged", async () => {
  const worker = spawnWorker("responses", { configDir });
  try {
    const hello = await worker.request("hello", { protocol: 1, module: "responses" }, root);
    expect(hello.data).toEqual({
      protocol: 1,
      module: "responses",
      hooks: ["wire_request", "wire_response"],
      tools: [],
    });
    const other = { messages: [], keep: { a: 1 } };
    expect((await worker.request("steer", other, root)).data).toEqual(other);
  } finally {
    await worker.close();
  }
});

test("both wire hooks through the host, with the budget module in the same process", async () => {
  host = hostFor(["budget", "responses"], { configDir, workspace: root, dataDir: join(root, "data") });
  const req = await host.runHook("wire_request", {
    model: "o4-mini",
    messages: [
      { role: "system", content: "S" },
      { role: "user", content: "hi" },
    ],
    tools: [],
    max_output_tokens: 100,
    hints: {},
    body: null,
  });
  expect(req.body).toEqual({
    model: "o4-mini",
    instructions: "S",
    input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
    store: false,
    include: ["reasoning.encrypted_content"],
    max_output_tokens: 100,
  });
  const res = await host.runHook("wire_response", {
    model: "o4-mini",
    response: {
      status: "completed",
      output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] }],
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  });
  expect(res.message).toMatchObject({ role: "assistant", content: "hello" });
  expect(res.usage).toEqual({ input_tokens: 5, output_tokens: 1 });
  expect(res.stop).toBe("end");
});

test("i doctor --profile full: the responses module is ok", async () => {
  const r = await runCliAsync(["doctor", "--profile", "full", "-m", "gpt-4o", "--provider", "responses"], {
    OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
    I_CONFIG_DIR: configDir,
    I_DATA_DIR: join(root, "data"),
  });
  expect(r.stderr).toBe("");
  expect(r.stdout).toMatch(/^responses\s+built-in\s+ok\s/m);
  expect(r.stdout).toMatch(/^shared built-in process: i worker \S*responses/m);
  expect(r.stdout).toContain("all 15 modules ok");
  expect(r.code).toBe(0);
});
