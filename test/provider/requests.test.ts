// What each provider puts on the wire: images, tool history, cache breakpoints, headers, endpoints.
import { describe, expect, test } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { wireToolId } from "../../src/lib/tool-ids.ts";
import { anthropicEndpoint } from "../../src/provider/anthropic.ts";
import { createProvider, NO_KEY } from "../../src/provider/index.ts";
import { openAiEndpoint } from "../../src/provider/openai.ts";
import { collect, mock, provider, request, TEST_KEY } from "./helpers.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const WITH_TOOLS: History = [
  { role: "system", content: "sys" },
  {
    role: "user",
    content: [
      { type: "text", text: "What is in this picture?" },
      { type: "image", media_type: "image/png", data: PNG },
    ],
  },
  {
    role: "assistant",
    content: "Checking.",
    tool_calls: [
      { id: "call_1", name: "read", arguments: '{"path":"a.png"}' },
      { id: "call_2", name: "bash", arguments: "{not json" },
    ],
  },
  {
    role: "tool",
    tool_call_id: "call_1",
    content: [
      { type: "text", text: "the file" },
      { type: "image", media_type: "image/png", data: PNG },
    ],
  },
  { role: "tool", tool_call_id: "call_2", content: "invalid JSON arguments", meta: { is_error: true } },
  { role: "user", content: "And now?" },
];

const TOOL = {
  name: "read",
  description: "Read a file",
  input_schema: { type: "object", properties: { path: { type: "string" } } },
};

describe("openai wire", () => {
  test("images become data URLs; tool calls and results keep their ids; tool images follow as a user turn", async () => {
    const server = await mock([{ text: "ok" }]);
    await collect(provider("openai", server), request("openai", { messages: WITH_TOOLS, tools: [TOOL] }));
    const body = server.requests[0]?.body as { messages: unknown[]; tools: unknown[] };
    expect(body.messages).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.png"}' } },
          { id: "call_2", type: "function", function: { name: "bash", arguments: "{not json" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "the file" },
      { role: "tool", tool_call_id: "call_2", content: "invalid JSON arguments" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by the tool calls above:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      { role: "user", content: "And now?" },
    ]);
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "read", description: "Read a file", parameters: TOOL.input_schema },
      },
    ]);
  });

  test("headers: bearer key, extra headers; no authorization for the local no-key placeholder", async () => {
    const server = await mock([{ text: "a" }, { text: "b" }]);
    await collect(provider("openai", server, { headers: { "x-title": "i" } }), request("openai"));
    await collect(provider("openai", server, { apiKey: NO_KEY }), request("openai"));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(server.requests[0]?.headers["x-title"]).toBe("i");
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  test("api.openai.com gets max_completion_tokens (reasoning models reject max_tokens)", async () => {
    const server = await mock([{ text: "ok" }]);
    const seen: string[] = [];
    // Route the official URL to the mock so the whole real transport runs.
    const redirect: typeof fetch = Object.assign(
      (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(String(input));
        return fetch(`${server.url}/v1/chat/completions`, init);
      },
      { preconnect: fetch.preconnect },
    );
    const p = createProvider({ provider: "openai", apiKey: TEST_KEY, fetch: redirect });
    await collect(p, request("openai", { max_output_tokens: 500 }));
    expect(seen).toEqual(["https://api.openai.com/v1/chat/completions"]);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(500);
    expect(body.max_tokens).toBeUndefined();
  });

  test("endpoints: a bare origin gets /v1; a full base URL is kept", () => {
    expect(openAiEndpoint()).toBe("https://api.openai.com/v1/chat/completions");
    expect(openAiEndpoint("http://localhost:11434")).toBe("http://localhost:11434/v1/chat/completions");
    expect(openAiEndpoint("http://localhost:11434/v1/")).toBe("http://localhost:11434/v1/chat/completions");
    expect(openAiEndpoint("https://openrouter.ai/api/v1")).toBe(
      "https://openrouter.ai/api/v1/chat/completions",
    );
    // The Responses API shares the rule.
    expect(openAiEndpoint(undefined, "/responses")).toBe("https://api.openai.com/v1/responses");
    expect(openAiEndpoint("http://localhost:11434", "/responses")).toBe(
      "http://localhost:11434/v1/responses",
    );
    expect(openAiEndpoint("http://127.0.0.1:9/v1/responses", "/responses")).toBe(
      "http://127.0.0.1:9/v1/responses",
    );
  });
});

describe("anthropic wire", () => {
  test("images as base64 sources; tool_use with parsed input; tool results merged into one user turn", async () => {
    const server = await mock([{ text: "ok" }]);
    await collect(
      provider("anthropic", server),
      request("anthropic", { messages: WITH_TOOLS, tools: [TOOL] }),
    );
    const body = server.requests[0]?.body as Record<string, unknown>;
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } };
    expect(body.system).toBe("sys");
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What is in this picture?" }, image] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "call_1", name: "read", input: { path: "a.png" } },
          { type: "tool_use", id: "call_2", name: "bash", input: { invalid_arguments: "{not json" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1",
            content: [{ type: "text", text: "the file" }, image],
          },
          {
            type: "tool_result",
            tool_use_id: "call_2",
            content: [{ type: "text", text: "invalid JSON arguments" }],
            is_error: true,
          },
          { type: "text", text: "And now?" },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      { name: "read", description: "Read a file", input_schema: TOOL.input_schema },
    ]);
  });

  test("cache breakpoints mark the system prompt and the named messages' last blocks", async () => {
    const server = await mock([{ text: "ok" }]);
    await collect(
      provider("anthropic", server),
      request("anthropic", { messages: WITH_TOOLS, hints: { cache_breakpoints: [0, 4], unrelated: true } }),
    );
    const body = server.requests[0]?.body as {
      system: unknown;
      messages: { content: Record<string, unknown>[] }[];
    };
    expect(body.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    const marked = body.messages.flatMap((m) => m.content).filter((b) => b.cache_control);
    expect(marked).toHaveLength(1);
    expect(marked[0]?.tool_use_id).toBe("call_2"); // history[4] is the second tool result
  });

  test("at most four breakpoints are sent (the latest ones)", async () => {
    const server = await mock([{ text: "ok" }]);
    await collect(
      provider("anthropic", server),
      request("anthropic", { messages: WITH_TOOLS, hints: { cache_breakpoints: [0, 1, 2, 3, 4, 5] } }),
    );
    const body = server.requests[0]?.body as {
      system: unknown;
      messages: { content: Record<string, unknown>[] }[];
    };
    expect(typeof body.system).toBe("string");
    expect(body.messages.flatMap((m) => m.content).filter((b) => b.cache_control)).toHaveLength(4);
  });

  test("headers: x-api-key and anthropic-version; never the key in a bearer header", async () => {
    const server = await mock([{ text: "a" }, { text: "b" }]);
    await collect(provider("anthropic", server), request("anthropic"));
    await collect(provider("anthropic", server, { apiKey: NO_KEY }), request("anthropic"));
    const h = server.requests[0]?.headers ?? {};
    expect(h["x-api-key"]).toBe(TEST_KEY);
    expect(h["anthropic-version"]).toBe("2023-06-01");
    expect(h.authorization).toBeUndefined();
    expect(server.requests[1]?.headers["x-api-key"]).toBeUndefined();
  });

  test("endpoints: with or without a trailing /v1", () => {
    expect(anthropicEndpoint()).toBe("https://api.anthropic.com/v1/messages");
    expect(anthropicEndpoint("http://127.0.0.1:9/v1")).toBe("http://127.0.0.1:9/v1/messages");
    expect(anthropicEndpoint("https://proxy.example/anthropic/")).toBe(
      "https://proxy.example/anthropic/v1/messages",
    );
  });

  test("ids another provider minted are made acceptable, the same way for call and result", async () => {
    const odd = "chatcmpl-tool.7f3a:9";
    const history: History = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "", tool_calls: [{ id: odd, name: "read", arguments: "{}" }] },
      { role: "tool", tool_call_id: odd, content: "r" },
    ];
    const server = await mock([{ text: "ok" }]);
    await collect(provider("anthropic", server), request("anthropic", { messages: history }));
    const body = server.requests[0]?.body as { messages: { content: Record<string, unknown>[] }[] };
    const use = body.messages[1]?.content[0];
    const result = body.messages[2]?.content[0];
    expect(use?.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(result?.tool_use_id).toBe(use?.id);
    expect(wireToolId("x".repeat(64), "openai").length).toBeLessThanOrEqual(40);
  });
});

test("createProvider refuses a malformed base URL with one clear line", () => {
  expect(() => createProvider({ provider: "openai", apiKey: "k", baseUrl: "localhost:11434" })).toThrow(
    /base URL "localhost:11434"/,
  );
  expect(() => createProvider({ provider: "openai", apiKey: "k", baseUrl: "not a url" })).toThrow(
    /not a valid URL/,
  );
});
