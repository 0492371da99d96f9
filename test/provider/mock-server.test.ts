// The mock model server itself: non-stream replies, script functions, exhaustion, request checks, CLI.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ProviderError } from "../../src/provider/types.ts";
import { ROOT, removeDir, tempDir } from "../helpers/cli.ts";
import { collect, mock, provider, rejection, request } from "./helpers.ts";

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe("mock server", () => {
  test("non-stream JSON replies in both formats", async () => {
    const server = await mock([
      {
        text: "hi",
        tool_calls: [{ name: "read", arguments: { path: "x" }, id: "c1" }],
        usage: { input_tokens: 9, output_tokens: 2 },
      },
      { text: "yo", usage: { input_tokens: 4, output_tokens: 1 } },
    ]);
    const a = await post(`${server.url}/v1/chat/completions`, { model: "m", messages: [], stream: false });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({
      choices: [
        {
          message: {
            role: "assistant",
            content: "hi",
            tool_calls: [{ id: "c1", function: { name: "read", arguments: '{"path":"x"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 2 },
    });
    const b = await post(`${server.url}/v1/messages`, { model: "c", max_tokens: 10, messages: [] });
    expect(b.json).toMatchObject({
      content: [{ type: "text", text: "yo" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 4 },
    });
    expect(server.requests.map((r) => r.format)).toEqual(["openai", "anthropic"]);
  });

  test("a script function sees each request and its index", async () => {
    const server = await mock((req, i) => ({ text: `#${i} ${(req.body as { model: string }).model}` }));
    const p = provider("openai", server);
    expect((await collect(p, request("openai"))).res.message.content).toBe("#0 gpt-4o");
    expect((await collect(p, request("openai", { model: "other" }))).res.message.content).toBe("#1 other");
  });

  test("an exhausted script answers 500 'mock script exhausted'", async () => {
    const server = await mock([]);
    const err = await rejection(provider("anthropic", server).stream(request("anthropic")));
    expect(err).toBeInstanceOf(ProviderError);
    expect(server.requests).toHaveLength(1); // x-should-retry: false, so no backoff on a dead script
    expect((err as ProviderError).status).toBe(500);
    expect((err as ProviderError).message).toContain("mock script exhausted");
  });

  test("requests the real APIs would reject are rejected", async () => {
    const server = await mock([{ text: "never" }]);
    const r = await post(`${server.url}/v1/messages`, { model: "c", messages: [] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain("max_tokens");
    const s = await post(`${server.url}/v1/messages`, {
      model: "c",
      max_tokens: 5,
      messages: [{ role: "system", content: "x" }],
    });
    expect(s.status).toBe(400);
    const unknown = await fetch(`${server.url}/v1/embeddings`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
  });
});

describe("mock server CLI", () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    child?.kill();
    child = undefined;
    if (dir) removeDir(dir);
    dir = undefined;
  });

  function start(args: string[]): {
    child: ChildProcess;
    firstLine: Promise<string>;
    exit: Promise<number | null>;
  } {
    const c = spawn(process.execPath, [join(ROOT, "test/fixtures/mock-server/cli.ts"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = c;
    const stdout = c.stdout;
    const firstLine = new Promise<string>((resolve, reject) => {
      if (!stdout) return reject(new Error("no stdout"));
      createInterface({ input: stdout }).once("line", resolve);
    });
    const exit = new Promise<number | null>((resolve) => c.once("exit", (code) => resolve(code)));
    return { child: c, firstLine, exit };
  }

  test("prints its URL as one line and serves the script until killed", async () => {
    dir = tempDir("i-mock-");
    const script = join(dir, "script.json");
    writeFileSync(script, JSON.stringify([{ text: "from the CLI" }]));
    const run = start(["--script", script]);
    const url = await run.firstLine;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const p = provider("openai", { url, requests: [], close: async () => {} });
    expect((await collect(p, request("openai"))).res.message.content).toBe("from the CLI");
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
  });

  test("a bad script file is one clear line and exit 2", async () => {
    dir = tempDir("i-mock-");
    const script = join(dir, "bad.json");
    writeFileSync(script, JSON.stringify([{ txt: "typo" }]));
    const run = start(["--script", script]);
    let stderr = "";
    run.child.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    expect(await run.exit).toBe(2);
    expect(stderr).toContain(script);
    expect(stderr).toContain("txt");
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});
