// The session facade the console and print mode drive a session through, in process against the mock
// model server and the real steering worker: a turn, steering through the queue, cancel, the model switch
// recorded in one call, `!command`, switching sessions, and close handing back what the model never got.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentSession, type SessionOptions } from "../../src/agent/agent-session.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { MAIN, removeDir, tempDir } from "../helpers/cli.ts";
import { manifestOf } from "../worker/helpers.ts";

let root: string;
let mock: MockServer;
let base: SessionOptions;
const saved: Record<string, string | undefined> = {};
const ENV = ["I_CONFIG_DIR", "I_DATA_DIR", "OPENAI_API_KEY"] as const;

beforeAll(async () => {
  root = tempDir("i-facade-");
  const [ws, cfg, data] = ["ws", "cfg", "data"].map((d) => join(root, d)) as [string, string, string];
  for (const d of [ws, cfg, data]) mkdirSync(d, { recursive: true });
  const model = { context_window: 100_000, max_output_tokens: 4096 };
  writeFileSync(join(cfg, "config.json"), JSON.stringify({ models: { "mock-a": model, "mock-b": model } }));
  // The built-in steering worker, run from source (the test runner is not the `i` executable).
  writeFileSync(
    join(cfg, "bindings.json"),
    JSON.stringify({ steering: { exec: [process.execPath, MAIN, "worker", "steering"] } }),
  );
  const manifest = join(root, "manifest.json");
  writeFileSync(manifest, JSON.stringify(manifestOf([], cfg)));
  mock = await startMockServer({
    script: [
      { text: "first reply" },
      { text: "second reply", hang: true },
      { text: "third reply" },
      { text: "fourth reply" },
    ],
  });
  for (const k of ENV) saved[k] = process.env[k];
  Object.assign(process.env, {
    I_CONFIG_DIR: cfg,
    I_DATA_DIR: data,
    OPENAI_API_KEY: "sk-test-not-real-0000",
  });
  base = {
    provider: "openai",
    baseUrl: mock.url,
    model: "mock-a",
    workspace: ws,
    manifest,
    approve: "all",
    maxTurns: 10,
  };
});

afterAll(async () => {
  for (const k of ENV) {
    const v = saved[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await mock.close();
  removeDir(root);
});

const queues = () => readdirSync(join(root, "data", "queues"));

describe("AgentSession", () => {
  test("turns, steering, cancel, the model switch, !command, switching sessions and close", async () => {
    const events: AgentEvent[] = [];
    const s = new AgentSession({ ...base, steering: true }, { emit: (ev) => events.push(ev) });
    await s.open();
    expect(s.resumed).toBe(false);

    // A line queued before the turn reaches the model in that turn's first request.
    s.steer("also mention the tests");
    expect(queues()).toHaveLength(1);
    expect((await s.send("hello")).text).toBe("first reply");
    expect(JSON.stringify(mock.requests[0]?.body)).toContain("also mention the tests");
    expect(s.history.some((m) => m.meta?.steered === true)).toBe(true);
    expect(s.status().context).toBeUndefined();

    // Cancel stops the running turn (the reply hangs until then); nothing else runs meanwhile.
    const turn = s.send("go on");
    while (!events.some((e) => e.type === "text_delta" && e.text.includes("second"))) await Bun.sleep(5);
    expect(s.busy).toBe(true);
    await expect(s.compact()).rejects.toThrow("another operation");
    s.cancel();
    expect(s.cancelling).toBe(true);
    expect((await turn).stop).toBe("cancelled");
    expect(s.busy).toBe(false);

    // The switch takes effect for the next request and is recorded in the session in the same call.
    expect(s.setModel("mock-b").name).toBe("mock-b");
    expect(s.model.name).toBe("mock-b");
    expect(s.listSessions().find((m) => m.id === s.id)?.model).toBe("mock-b");
    expect((await s.send("and now?")).text).toBe("third reply");
    expect((mock.requests[2]?.body as { model?: string } | undefined)?.model).toBe("mock-b");

    const shell = await s.runShell("echo from-the-user");
    expect(shell).toMatchObject({ isError: false, refused: false });
    expect(shell.text).toContain("from-the-user");
    expect(JSON.stringify(s.history.at(-1))).toContain("echo from-the-user");

    // Another session, then back: the first one resumes with its history.
    const first = s.id;
    const length = s.history.length;
    await s.switchTo();
    expect(s.id).not.toBe(first);
    expect(s.resumed).toBe(false);
    await s.switchTo(first);
    expect(s.id).toBe(first);
    expect(s.resumed).toBe(true);
    expect(s.history).toHaveLength(length);

    // What was typed after the last turn is handed back; the queue and its delivery record go.
    s.steer("typed too late");
    expect(await s.close()).toEqual(["typed too late"]);
    expect(queues()).toEqual([]);
    expect(s.id).toBe(first);
  }, 60_000);

  test("without steering, steer is refused and nothing is queued; print mode's path", async () => {
    const s = new AgentSession(base, { emit: () => {} });
    await s.open();
    expect(() => s.steer("x")).toThrow("no queue");
    expect((await s.send("hi")).text).toMatch(/reply$/);
    expect(await s.close()).toEqual([]);
    expect(existsSync(join(root, "data", "queues"))).toBe(true);
    expect(queues()).toEqual([]);
  }, 60_000);
});
