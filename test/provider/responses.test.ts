// The Responses provider end to end at the provider level: the core's transport against the mock server's
// /v1/responses, with the request and reply shaped by the real responses module (`i worker responses`,
// through the WorkerHost). Streaming, tool calls and id repair, reasoning round trip, failures.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/contract/errors.ts";
import type { History } from "../../src/contract/history.ts";
import { createProvider, RESPONSES_MODULE_MISSING } from "../../src/provider/index.ts";
import {
  type ModelRequest,
  type Provider,
  ProviderError,
  type StreamEvent,
} from "../../src/provider/types.ts";
import { WorkerError } from "../../src/worker/errors.ts";
import type { WorkerHost } from "../../src/worker/host.ts";
import type { MockServer } from "../fixtures/mock-server/index.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { hostFor } from "../helpers/worker-io.ts";
import { collect, mock, rejection, TEST_KEY } from "./helpers.ts";

const MODEL = "gpt-5-mini";
let root: string;
let host: WorkerHost;

beforeAll(() => {
  root = tempDir("i-responses-provider-");
  mkdirSync(join(root, "config"));
  host = hostFor(["responses"], {
    configDir: join(root, "config"),
    workspace: root,
    dataDir: join(root, "data"),
  });
});
afterAll(async () => {
  await host.close();
  removeDir(root);
});

function responses(server: MockServer, extra: { maxRetries?: number } = {}): Provider {
  return createProvider({
    provider: "responses",
    apiKey: TEST_KEY,
    baseUrl: server.url,
    maxRetries: extra.maxRetries ?? 2,
    retryBaseMs: 1,
    hooks: host,
  });
}

const BASIC: History = [
  { role: "system", content: "You are a test." },
  { role: "user", content: "Say hello." },
];
const READ = {
  name: "read",
  description: "Read a file",
  input_schema: { type: "object", properties: { path: { type: "string" } } },
};

function req(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: MODEL, messages: BASIC, tools: [], max_output_tokens: 1000, ...extra };
}

/** The `input` items of the n-th recorded request. */
function inputOf(server: MockServer, n: number): Record<string, unknown>[] {
  return (server.requests[n]?.body as { input?: Record<string, unknown>[] } | undefined)?.input ?? [];
}

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await rejection(p);
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(err)}`);
  return err;
}

describe("responses: requests and replies", () => {
  test("POST /v1/responses with a bearer key and the module's body; text streams; usage and stop", async () => {
    const server = await mock([
      { text: "Hello there, friend.", usage: { input_tokens: 11, output_tokens: 4 } },
    ]);
    const { res, events } = await collect(responses(server), req());
    expect(res.message.content).toBe("Hello there, friend.");
    expect(res.usage).toEqual({ input_tokens: 11, output_tokens: 4 });
    expect(res.stop).toBe("end");
    expect(res.message.adapter?.responses).toMatchObject({ items: [{ type: "message", id: "msg_mock_0" }] });
    const text = events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text);
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe("Hello there, friend.");

    const [sent] = server.requests;
    expect(sent?.path).toBe("/v1/responses");
    expect(sent?.format).toBe("responses");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(sent?.body).toMatchObject({
      model: MODEL,
      instructions: "You are a test.",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Say hello." }] }],
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      max_output_tokens: 1000,
    });
  });

  test("parallel tool calls: announced and streamed as they arrive, arguments whole, stop tool_calls", async () => {
    const server = await mock([
      {
        tool_calls: [
          { name: "read", arguments: { path: "a.txt" } },
          { name: "read", arguments: { path: "b.txt" }, id: "call_b" },
        ],
      },
    ]);
    const { res, events } = await collect(responses(server), req({ tools: [READ] }));
    expect(res.stop).toBe("tool_calls");
    expect(res.message.tool_calls).toEqual([
      { id: "call_mock_0_0", name: "read", arguments: '{"path":"a.txt"}' },
      { id: "call_b", name: "read", arguments: '{"path":"b.txt"}' },
    ]);
    expect(events.filter((e) => e.type === "tool_call")).toEqual([
      { type: "tool_call", id: "call_mock_0_0", name: "read" },
      { type: "tool_call", id: "call_b", name: "read" },
    ]);
    const deltas = events.filter(
      (e): e is Extract<StreamEvent, { type: "tool_call_delta" }> => e.type === "tool_call_delta",
    );
    expect(
      deltas
        .filter((d) => d.id === "call_b")
        .map((d) => d.arguments)
        .join(""),
    ).toBe('{"path":"b.txt"}');
    expect(server.requests[0]?.body).toMatchObject({
      tools: [{ type: "function", name: "read", parameters: READ.input_schema, strict: false }],
    });
  });

  test("ids are repaired (missing, reused) and the next request pairs calls and outputs by the repaired ids", async () => {
    const server = await mock([
      {
        tool_calls: [
          { name: "read", arguments: { path: "a" }, id: "call_0" },
          { name: "read", arguments: {}, id: "" },
        ],
      },
      { text: "done" },
    ]);
    const p = responses(server);
    const earlier: History = [
      ...BASIC,
      { role: "assistant", content: "", tool_calls: [{ id: "call_0", name: "read", arguments: "{}" }] },
      { role: "tool", tool_call_id: "call_0", content: "old" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "again" },
    ];
    const first = await p.stream(req({ messages: earlier, tools: [READ] }));
    const ids = (first.message.tool_calls ?? []).map((c) => c.id);
    expect(ids[0]).toBe("call_0_2");
    expect(ids[1]).toMatch(/^call_[0-9a-f]{24}$/);
    const history: History = [
      ...earlier,
      first.message,
      ...ids.map((id) => ({ role: "tool" as const, tool_call_id: id, content: `result ${id}` })),
    ];
    // The mock refuses an output whose call it has not seen, so this passing proves the pairing.
    const second = await p.stream(req({ messages: history, tools: [READ] }));
    expect(second.message.content).toBe("done");
    const input = inputOf(server, 1) as { type: string; call_id?: string }[];
    const sentCalls = input.filter((i) => i.type === "function_call").map((i) => i.call_id);
    expect(sentCalls).toEqual(["call_0", ...ids]);
  });

  test("reasoning round trip: the encrypted reasoning item of reply 1 is sent back verbatim in request 2", async () => {
    const server = await mock([
      { reasoning: "The user wants a.txt.", tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] },
      { reasoning: "Now answer.", text: "It says alpha." },
    ]);
    const p = responses(server);
    const first = await p.stream(req({ tools: [READ] }));
    const items =
      (first.message.adapter?.responses as { items: Record<string, unknown>[] } | undefined)?.items ?? [];
    const reasoning = items.find((i) => i.type === "reasoning");
    expect(reasoning?.encrypted_content).toEqual(expect.any(String));
    const history: History = [
      ...BASIC,
      first.message,
      { role: "tool", tool_call_id: first.message.tool_calls?.[0]?.id ?? "", content: "alpha" },
    ];
    const second = await p.stream(req({ messages: history, tools: [READ] }));
    expect(second.message.content).toBe("It says alpha.");
    const input = inputOf(server, 1);
    expect(input.filter((i) => i.type === "reasoning")).toEqual([reasoning as Record<string, unknown>]);
  });

  test("max_output_tokens reached: response.incomplete → stop length", async () => {
    const server = await mock([{ text: "cut sho", stop: "length" }]);
    const res = await responses(server).stream(req());
    expect(res.stop).toBe("length");
    expect(res.message.content).toBe("cut sho");
  });
});

describe("responses: failures", () => {
  test("401: auth, not retried, names the provider and model, never the key", async () => {
    const server = await mock([{ error: "auth" }, { text: "never" }]);
    const err = await providerError(responses(server).stream(req()));
    expect(err.kind).toBe("auth");
    expect(err.status).toBe(401);
    expect(err.message).toContain(`responses model "${MODEL}": HTTP 401`);
    expect(err.message).toContain("OPENAI_API_KEY");
    expect(err.message).not.toContain(TEST_KEY);
    expect(server.requests).toHaveLength(1);
  });

  test("context overflow, as an HTTP error and as response.failed in the stream: context_overflow", async () => {
    const server = await mock([{ error: "overflow" }, { stream_error: "overflow", text: "" }]);
    const p = responses(server);
    const http = await providerError(p.stream(req()));
    expect(http.kind).toBe("context_overflow");
    expect(http.message).toContain("exceeds the context window");
    const inStream = await providerError(p.stream(req()));
    expect(inStream.kind).toBe("context_overflow");
    expect(inStream.message).toContain("error in stream");
    expect(server.requests).toHaveLength(2);
  });

  test("429 and 500 are retried with the shared backoff; so is a failure after streamed text", async () => {
    const server = await mock([
      { error: "rate_limit", retry_after: 0.01 },
      { error: "server" },
      { text: "finally" },
      { text: "partial", stream_error: "server" },
      { text: "whole" },
    ]);
    const p = responses(server);
    const { res, events } = await collect(p, req());
    expect(res.message.content).toBe("finally");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
    const again = await collect(p, req());
    expect(again.res.message.content).toBe("whole");
    expect(again.events.find((e) => e.type === "retry")).toMatchObject({ discarded: true });
    expect(server.requests).toHaveLength(5);
  });

  test("a connection cut mid-stream: network, retried (the partial text discarded); the last one fails", async () => {
    const cut = { text: "half", drop: true };
    const server = await mock([{ drop: true }, { text: "second try" }, cut, cut, cut]);
    const p = responses(server);
    const { res, events } = await collect(p, req());
    expect(res.message.content).toBe("second try");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
    const err = await providerError(p.stream(req()));
    expect(err.kind).toBe("network");
    expect(err.partialText).toBe("half");
    expect(server.requests).toHaveLength(5);
  });

  test("cancelling mid-stream rejects with cancelled", async () => {
    const server = await mock([{ text: "forever", hang: true }]);
    const abort = new AbortController();
    const pending = responses(server).stream(req({ signal: abort.signal }), (ev) => {
      if (ev.type === "text_delta") abort.abort();
    });
    const err = await providerError(pending);
    expect(err.kind).toBe("cancelled");
  });
});

describe("responses: the module is required", () => {
  test("without hooks, or with a manifest lacking the module: one clear UserError, no HTTP", async () => {
    const server = await mock([{ text: "never" }]);
    const noHooks = () => createProvider({ provider: "responses", apiKey: TEST_KEY, baseUrl: server.url });
    expect(noHooks).toThrow(UserError);
    expect(noHooks).toThrow(RESPONSES_MODULE_MISSING);
    const budgetOnly = hostFor(["budget"], {
      configDir: join(root, "config"),
      workspace: root,
      dataDir: root,
    });
    try {
      expect(() =>
        createProvider({ provider: "responses", apiKey: TEST_KEY, baseUrl: server.url, hooks: budgetOnly }),
      ).toThrow(RESPONSES_MODULE_MISSING);
    } finally {
      await budgetOnly.close();
    }
    expect(server.requests).toHaveLength(0);
  });
});

test("a module that returns no body fails the request naming the module and hook, before any HTTP", async () => {
  const { manifestOf, misbehaving, BUN, MISBEHAVE } = await import("../worker/helpers.ts");
  const { WorkerHost } = await import("../../src/worker/host.ts");
  const configDir = join(root, "config");
  // A replacement that answers every event with its data unchanged: body stays null.
  const manifest = manifestOf(["responses"], configDir, { responses: misbehaving("responses", "ok") });
  expect(manifest.hooks.wire_request?.[0]?.exec).toEqual([
    BUN,
    MISBEHAVE,
    "--module",
    "responses",
    "--mode",
    "ok",
  ]);
  const lazy = new WorkerHost(manifest, { workspace: root, configDir });
  try {
    const server = await mock([{ text: "never" }]);
    const p = createProvider({ provider: "responses", apiKey: TEST_KEY, baseUrl: server.url, hooks: lazy });
    const err = await rejection(p.stream(req()));
    expect(err).toBeInstanceOf(WorkerError);
    expect((err as Error).message).toBe(
      'worker "responses" failed on event "wire_request": invalid reply: field body: expected record, received null',
    );
    expect(server.requests).toHaveLength(0);
  } finally {
    await lazy.close();
  }
});
