// The OpenAI request is sent as bytes kept per history and extended as the history grows, instead of
// JSON.stringify of the whole body per request. It must be exactly the same bytes in every case: a
// growing history, images a tool batch returned (carried by a user turn after the batch), a history
// changed in the middle or cut back, tools and either output-limit field.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/contract/history.ts";
import { openAiRequestBody, openAiRequestBytes } from "../../src/provider/openai-request.ts";
import type { ModelRequest } from "../../src/provider/types.ts";

const png = { type: "image" as const, media_type: "image/png", data: "iVBORw0KGgo=" };

function script(): Message[] {
  return [
    { role: "system", content: 'you are a test \u2028 with "quotes" and \\ backslashes' },
    { role: "user", content: "first question, ünïcödé 世界 🎉" },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "call_1", name: "bash", arguments: '{"command":"ls"}' },
        { id: `call_${"x".repeat(60)}`, name: "read", arguments: '{"path":"a.png"}' },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "a.png\n" },
    {
      role: "tool",
      tool_call_id: `call_${"x".repeat(60)}`,
      content: [{ type: "text", text: "the image" }, png],
    },
    { role: "user", content: [{ type: "text", text: "and this one" }, png] },
    { role: "assistant", content: "done", meta: { ts: "2026-01-01T00:00:00Z" } },
    { role: "system", content: "" },
    { role: "assistant", content: "", tool_calls: [{ id: "call_3", name: "read", arguments: "{}" }] },
    { role: "tool", tool_call_id: "call_3", content: [png] },
  ];
}

const tools = [{ name: "bash", description: "run", input_schema: { type: "object" } }];

function expectSame(req: ModelRequest): void {
  for (const useMaxCompletionTokens of [false, true]) {
    const opts = { useMaxCompletionTokens };
    const bytes = openAiRequestBytes(req, opts);
    expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify(openAiRequestBody(req, opts)));
  }
}

describe("openAiRequestBytes is the UTF-8 of JSON.stringify(openAiRequestBody)", () => {
  test("one history array growing message by message (images pending at the end, then flushed)", () => {
    const all = script();
    const h: Message[] = [];
    for (const m of all) {
      h.push(m);
      expectSame({ model: "m", messages: h, tools, max_output_tokens: 100 });
    }
  });

  test("two tool lists in turn over one history: each request carries its own list's declarations", () => {
    const other = [
      {
        name: "read",
        description: "lit un fichier — vite",
        input_schema: { type: "object", properties: {} },
      },
      ...tools,
    ];
    const h = script().slice(0, 4);
    for (const list of [tools, other, tools, other]) {
      expectSame({ model: "m", messages: h, tools: list });
      const body = JSON.parse(
        new TextDecoder().decode(
          openAiRequestBytes({ model: "m", messages: h, tools: list }, { useMaxCompletionTokens: false }),
        ),
      );
      expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
        list.map((t) => t.name),
      );
    }
  });

  test("a fresh array per request, no tools, no output limit", () => {
    const all = script();
    for (let n = 0; n <= all.length; n++) expectSame({ model: "m", messages: all.slice(0, n), tools: [] });
  });

  test("the same array changed in the middle, and cut back", () => {
    const h = script();
    const req = { model: "m", messages: h, tools };
    expectSame(req);
    h[1] = { role: "user", content: "a different first question" };
    expectSame(req);
    h.length = 4;
    expectSame(req);
    h.push({ role: "user", content: "after the cut" });
    expectSame(req);
  });
});
