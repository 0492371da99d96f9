// The Gemini provider end to end against the mock's Gemini wire: SSE text, thought summaries as reasoning,
// parallel function calls whose thought signatures go back unchanged across a tool turn, images, system
// instructions, schemas Gemini accepts, usage with cached and thinking tokens, and the failures.
import { describe, expect, test } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { geminiParameters } from "../../src/provider/gemini/schema.ts";
import { createProvider } from "../../src/provider/index.ts";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";
import type { MockServer } from "../fixtures/mock-server/index.ts";
import { collect, mock, rejection } from "./helpers.ts";

const KEY = "AIzaSyTEST-0123456789abcdefghijklmnopq";
const MODEL = "gemini-2.5-pro";

function gemini(server: MockServer) {
  return createProvider({
    provider: "gemini",
    apiKey: KEY,
    baseUrl: server.url,
    maxRetries: 2,
    retryBaseMs: 1,
  });
}

const TOOLS = [
  {
    name: "read",
    description: "read a file",
    input_schema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: {
        path: { type: "string" },
        offset: { type: ["integer", "null"] },
        mode: { const: "text" },
        opts: { $ref: "#/$defs/opts" },
      },
      required: ["path"],
      $defs: {
        opts: { type: "object", additionalProperties: false, properties: { raw: { type: "boolean" } } },
      },
    },
  },
  { name: "now", description: "the time", input_schema: { type: "object", properties: {} } },
];

const HISTORY: History = [
  { role: "system", content: "You are a test." },
  { role: "user", content: "Read two files." },
];

const reasoningOf = (events: StreamEvent[]) =>
  events.map((e) => (e.type === "reasoning_delta" ? e.text : "")).join("");

type Obj = Record<string, unknown>;

describe("gemini", () => {
  test("text, thought summaries and usage (cached and thinking tokens) over SSE, key in a header", async () => {
    const server = await mock([
      {
        text: "Hello from Gemini.",
        reasoning: "Thinking it over.",
        usage: { input_tokens: 40, output_tokens: 5 },
        cached_tokens: 30,
      },
    ]);
    const { res, events } = await collect(gemini(server), { model: MODEL, messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("Hello from Gemini.");
    expect(reasoningOf(events)).toBe("Thinking it over.");
    expect(res.message.meta?.reasoning).toBe("Thinking it over.");
    expect(res.stop).toBe("end");
    // 40 prompt tokens (30 of them cached); 5 answer tokens + 5 thinking tokens, billed as output.
    expect(res.usage).toEqual({ input_tokens: 40, output_tokens: 10, cache_read_tokens: 30 });
    const rec = server.requests[0];
    expect(rec?.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent`);
    expect(rec?.query).toBe("alt=sse");
    expect(rec?.headers["x-goog-api-key"]).toBe(KEY);
    expect(rec?.query).not.toContain(KEY);
    const body = rec?.body as Obj;
    expect(body.systemInstruction).toEqual({ parts: [{ text: "You are a test." }] });
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Read two files." }] }]);
    expect((body.generationConfig as Obj).thinkingConfig).toEqual({ includeThoughts: true });
  });

  test("parallel function calls, then the tool turn: signatures sent back unchanged, responses by name and id", async () => {
    const server = await mock([
      {
        reasoning: "Two reads at once.",
        tool_calls: [
          { name: "read", arguments: { path: "a.ts" }, id: "fc_1" },
          { name: "read", arguments: { path: "b.ts" }, id: "fc_2" },
        ],
      },
      { text: "Both read.", reasoning: "Done." },
    ]);
    const p = gemini(server);
    const first = await p.stream({ model: MODEL, messages: HISTORY, tools: TOOLS });
    expect(first.stop).toBe("tool_calls");
    expect(first.message.tool_calls?.map((c) => [c.id, c.name, JSON.parse(c.arguments)])).toEqual([
      ["fc_1", "read", { path: "a.ts" }],
      ["fc_2", "read", { path: "b.ts" }],
    ]);
    const state = first.message.adapter?.gemini as { calls?: Record<string, string> };
    expect(Object.keys(state.calls ?? {})).toEqual(["fc_1"]);
    const history: History = [
      ...HISTORY,
      first.message,
      { role: "tool", tool_call_id: "fc_1", content: "A" },
      { role: "tool", tool_call_id: "fc_2", content: "no such file", meta: { is_error: true } },
    ];
    // The mock refuses a tool turn whose signature is missing or altered, and responses it cannot pair.
    const second = await p.stream({ model: MODEL, messages: history, tools: TOOLS });
    expect(second.message.content).toBe("Both read.");
    const body = server.requests[1]?.body as { contents: { role: string; parts: Obj[] }[] };
    const model = body.contents[1];
    expect(model?.role).toBe("model");
    expect(model?.parts[0]?.thoughtSignature).toBe(state.calls?.fc_1);
    expect(model?.parts[1]?.thoughtSignature).toBeUndefined();
    expect(body.contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { id: "fc_1", name: "read", response: { output: "A" } } },
        { functionResponse: { id: "fc_2", name: "read", response: { error: "no such file" } } },
      ],
    });
  });

  test("a tool turn made elsewhere (no signature) goes with Gemini's documented skip value; a forged one is refused", async () => {
    const server = await mock([{ text: "noon it is" }, { text: "never" }]);
    const history: History = [
      ...HISTORY,
      { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "now", arguments: "{}" }] },
      { role: "tool", tool_call_id: "c1", content: "noon" },
    ];
    const ok = await gemini(server).stream({ model: MODEL, messages: history, tools: TOOLS });
    expect(ok.message.content).toBe("noon it is");
    const sent = server.requests[0]?.body as { contents: { parts: Obj[] }[] };
    const parts = sent.contents[1]?.parts;
    expect(parts?.[0]?.thoughtSignature).toBe("skip_thought_signature_validator");
    const forged = history.map((m) =>
      m.tool_calls ? { ...m, adapter: { gemini: { calls: { c1: "Zm9yZ2Vk" } } } } : m,
    );
    const err = await rejection(gemini(server).stream({ model: MODEL, messages: forged, tools: TOOLS }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain("Corrupted thought signature");
  });

  test("images go as inlineData; tools without parameters declare none", async () => {
    const server = await mock([{ text: "A red dot." }]);
    const image = { type: "image" as const, media_type: "image/png", data: "iVBORw0KGgo=" };
    await gemini(server).stream({
      model: MODEL,
      messages: [
        HISTORY[0] as History[number],
        { role: "user", content: [{ type: "text", text: "What is it?" }, image] },
      ],
      tools: TOOLS,
    });
    const body = server.requests[0]?.body as {
      contents: { parts: Obj[] }[];
      tools: { functionDeclarations: Obj[] }[];
    };
    expect(body.contents[0]?.parts[1]).toEqual({
      inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" },
    });
    const decls = body.tools[0]?.functionDeclarations ?? [];
    expect(decls[1]).toEqual({ name: "now", description: "the time" });
  });

  test("schemas are adapted to Gemini's subset", () => {
    expect(geminiParameters(TOOLS[0]?.input_schema)).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        offset: { type: "integer", nullable: true },
        mode: { type: "string", enum: ["text"], format: "enum" },
        opts: { type: "object", properties: { raw: { type: "boolean" } } },
      },
      required: ["path"],
    });
  });

  test("overflow in Gemini's wording is a context overflow", async () => {
    const server = await mock([{ error: "overflow" }]);
    const err = (await rejection(
      gemini(server).stream({ model: MODEL, messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("context_overflow");
    expect(err.message).toMatch(/^gemini model "gemini-2.5-pro": HTTP 400: The input token count/);
  });

  test("a bad key (Gemini answers 400) is an auth error naming GEMINI_API_KEY, the key never repeated", async () => {
    const server = await mock([{ error: "auth" }]);
    const err = (await rejection(
      gemini(server).stream({ model: MODEL, messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("auth");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("GEMINI_API_KEY");
    expect(err.message).not.toContain(KEY);
  });

  test("429 with retry-after is waited for, then the reply arrives", async () => {
    const server = await mock([
      { error: "rate_limit", retry_after: 0.01 },
      { error: "server" },
      { text: "ok" },
    ]);
    const { res, events } = await collect(gemini(server), { model: MODEL, messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("ok");
    const retries = events.filter((e) => e.type === "retry");
    expect(retries.length).toBe(2);
    expect(retries[0]?.type === "retry" && retries[0].delay_ms).toBe(10);
    expect(retries[1]?.type === "retry" && retries[1].reason).toContain("HTTP 503: The model is overloaded");
  });

  test("429 with google.rpc.RetryInfo in the body: its retryDelay is waited for, as retry-after is", async () => {
    const server = await mock([
      { error: "rate_limit", retry_delay: "0.02s" },
      { error: "rate_limit", retry_delay: "17s" },
      { text: "ok" },
    ]);
    const waits: number[] = [];
    const p = createProvider({
      provider: "gemini",
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 3,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const { res } = await collect(p, { model: MODEL, messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("ok");
    expect(waits).toEqual([20, 17_000]);
  });

  test("a RetryInfo delay beyond the retry cap fails at once, saying what the server asked", async () => {
    const server = await mock([{ error: "rate_limit", retry_delay: "120s" }, { text: "never" }]);
    const p = createProvider({ provider: "gemini", apiKey: KEY, baseUrl: server.url, sleep: async () => {} });
    const err = (await rejection(p.stream({ model: MODEL, messages: HISTORY, tools: [] }))) as ProviderError;
    expect(err.kind).toBe("rate_limit");
    expect(err.message).toContain("the server asks to wait 120 s, longer than the 30 s retry cap");
    expect(server.requests.length).toBe(1);
  });

  test("a safety stop and a blocked prompt are clear, final errors", async () => {
    for (const step of [
      { text: "Partial", finish_reason: "SAFETY" },
      { block_reason: "PROHIBITED_CONTENT" },
    ]) {
      const server = await mock([step, { text: "never asked" }]);
      const err = (await rejection(
        gemini(server).stream({ model: MODEL, messages: HISTORY, tools: [] }),
      )) as ProviderError;
      expect(err.kind).toBe("bad_request");
      expect(err.message).toMatch(
        /^gemini model "gemini-2.5-pro": the (reply was stopped \(SAFETY\)|prompt was blocked \(PROHIBITED_CONTENT\)) by the provider's safety filters/,
      );
      expect(server.requests.length).toBe(1);
    }
  });

  test("a stream cut before its finishReason is retried; the second cut is the error", async () => {
    const server = await mock([
      { text: "Half", drop: true },
      { text: "Half again", drop: true },
      { text: "whole" },
    ]);
    const { res } = await collect(gemini(server), { model: MODEL, messages: HISTORY, tools: [] });
    expect(res.message.content).toBe("whole");
    const cut = await mock([
      { text: "Half", drop: true },
      { text: "Half", drop: true },
      { text: "Half", drop: true },
    ]);
    const err = (await rejection(
      gemini(cut).stream({ model: MODEL, messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("network");
    expect(err.message).toContain("gemini model");
  });

  test("an error inside the stream is classified", async () => {
    const server = await mock([{ text: "x", stream_error: "overflow" }]);
    const err = (await rejection(
      gemini(server).stream({ model: MODEL, messages: HISTORY, tools: [] }),
    )) as ProviderError;
    expect(err.kind).toBe("context_overflow");
  });
});
