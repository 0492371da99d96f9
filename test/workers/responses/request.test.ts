// The responses module's wire_request: history and tools → a Responses request body (pure conversion, and
// through the module's hook handler for the pipeline contract).

import { describe, expect, test } from "bun:test";
import type { History, Message } from "../../../src/contract/history.ts";
import type { HookRequest } from "../../../src/contract/hooks.ts";
import { WireRequestData } from "../../../src/contract/hooks.ts";
import { responsesModule } from "../../../workers/responses/index.ts";
import { requestBody, supportsEncryptedReasoning, toInput } from "../../../workers/responses/request.ts";
import type { WorkerContext } from "../../../workers/sdk/module.ts";

const PNG = "iVBORw0KGgo=";

function ctx(logs: string[] = []): WorkerContext {
  return {
    workspace: "/ws",
    event: "wire_request",
    module: "responses",
    cwd: "/",
    log: (m) => logs.push(m),
  };
}

const readTool = {
  name: "read",
  description: "Read a file",
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("history → input items", () => {
  test("system → instructions; user text and images; assistant text and calls; tool outputs", () => {
    const history: History = [
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image", media_type: "image/png", data: PNG },
        ],
      },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [{ id: "call_1", name: "read", arguments: '{"path":"a.txt"}' }],
      },
      { role: "tool", tool_call_id: "call_1", content: "alpha" },
      { role: "assistant", content: "It says alpha." },
      { role: "user", content: "thanks" },
    ];
    expect(toInput(history)).toEqual({
      instructions: "Be brief.",
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "What is in this picture?" },
            { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
          ],
        },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
        { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' },
        { type: "function_call_output", call_id: "call_1", output: "alpha" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "It says alpha." }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "thanks" }] },
      ],
    });
  });

  test("a later system message goes in as a developer message; an assistant turn of calls only has no text item", () => {
    const { input } = toInput([
      { role: "system", content: "S" },
      { role: "user", content: "u" },
      { role: "system", content: "late note" },
      { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", arguments: "{}" }] },
      { role: "tool", tool_call_id: "c", content: "ok" },
    ]);
    expect(input[1]).toEqual({
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "late note" }],
    });
    expect(input.slice(2).map((i) => i.type)).toEqual(["function_call", "function_call_output"]);
  });

  test("an id too long for OpenAI (minted by another wire) maps to the same short id for call and output", () => {
    const long = `toolu_${"x".repeat(60)}`;
    const { input } = toInput([
      { role: "system", content: "S" },
      { role: "user", content: "u" },
      { role: "assistant", content: "", tool_calls: [{ id: long, name: "bash", arguments: "{}" }] },
      { role: "tool", tool_call_id: long, content: "ok" },
    ]);
    const [call, output] = input.slice(1);
    expect(String(call?.call_id).length).toBeLessThanOrEqual(40);
    expect(output?.call_id).toBe(call?.call_id);
  });

  test("images returned by tools are named in the output and follow the whole batch as a user message", () => {
    const { input } = toInput([
      { role: "system", content: "S" },
      { role: "user", content: "look" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "a", name: "read", arguments: '{"path":"x.png"}' },
          { id: "b", name: "read", arguments: '{"path":"y.txt"}' },
        ],
      },
      {
        role: "tool",
        tool_call_id: "a",
        content: [
          { type: "text", text: "x.png" },
          { type: "image", media_type: "image/png", data: PNG },
        ],
      },
      { role: "tool", tool_call_id: "b", content: "text" },
      { role: "assistant", content: "seen" },
    ]);
    expect(input.map((i) => i.type)).toEqual([
      "message",
      "function_call",
      "function_call",
      "function_call_output",
      "function_call_output",
      "message",
      "message",
    ]);
    expect(input[3]).toEqual({
      type: "function_call_output",
      call_id: "a",
      output: "x.png\n[image image/png: attached after the tool results]",
    });
    expect(input[5]).toEqual({
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "Images returned by the tool calls above:" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });
});

describe("replaying stored output items", () => {
  const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "ENC1" };
  const stored: Message = {
    role: "assistant",
    content: "Checking.",
    tool_calls: [{ id: "call_a", name: "read", arguments: '{"path":"a"}' }],
    adapter: {
      responses: {
        items: [
          reasoning,
          {
            type: "message",
            id: "msg_1",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: "Checking.", annotations: [] }],
          },
          {
            type: "function_call",
            id: "fc_1",
            status: "completed",
            call_id: "call_a",
            name: "read",
            arguments: '{"path":"a"}',
          },
        ],
      },
    },
  };

  test("reasoning with encrypted content verbatim; message and call items without their server ids", () => {
    const { input } = toInput([{ role: "system", content: "S" }, { role: "user", content: "go" }, stored]);
    expect(input.slice(1)).toEqual([
      reasoning,
      {
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Checking.", annotations: [] }],
      },
      {
        type: "function_call",
        status: "completed",
        call_id: "call_a",
        name: "read",
        arguments: '{"path":"a"}',
      },
    ]);
  });

  test("call ids follow the history (the core may have repaired them); extra history calls are appended", () => {
    const msg: Message = {
      ...stored,
      tool_calls: [
        { id: "call_a_2", name: "read", arguments: '{"path":"a"}' },
        { id: "call_new", name: "bash", arguments: '{"command":"ls"}' },
      ],
    };
    const { input } = toInput([{ role: "system", content: "S" }, msg]);
    const calls = input.filter((i) => i.type === "function_call");
    expect(calls.map((c) => c.call_id)).toEqual(["call_a_2", "call_new"]);
    expect(calls[1]).toEqual({
      type: "function_call",
      call_id: "call_new",
      name: "bash",
      arguments: '{"command":"ls"}',
    });
  });

  test("reasoning without encrypted content is dropped (it only names server state that store:false never kept)", () => {
    const msg: Message = {
      role: "assistant",
      content: "hi",
      adapter: {
        responses: {
          items: [
            { type: "reasoning", id: "rs_2", summary: [] },
            { type: "web_search_call", id: "ws_1" },
          ],
        },
      },
    };
    const { input } = toInput([{ role: "system", content: "S" }, msg]);
    // nothing replayable but the text, which is rebuilt
    expect(input).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] },
    ]);
  });

  test("an unreadable adapter is logged and the turn rebuilt from the message", () => {
    const logs: string[] = [];
    const msg: Message = { role: "assistant", content: "plain", adapter: { responses: { items: "nope" } } };
    const { input } = toInput([{ role: "system", content: "S" }, msg], (m) => logs.push(m));
    expect(input).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "plain" }] },
    ]);
    expect(logs.join("\n")).toContain("adapter.responses");
  });
});

describe("request body", () => {
  const data = WireRequestData.parse({
    model: "gpt-5-mini",
    messages: [
      { role: "system", content: "S" },
      { role: "user", content: "hi" },
    ],
    tools: [readTool],
    max_output_tokens: 4096,
    hints: {},
    body: null,
  });

  test("flat function tools, stateless, encrypted reasoning asked for, output cap; no stream flag", () => {
    expect(requestBody(data)).toEqual({
      model: "gpt-5-mini",
      instructions: "S",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
      tools: [
        {
          type: "function",
          name: "read",
          description: "Read a file",
          parameters: readTool.input_schema,
          strict: false,
        },
      ],
      store: false,
      include: ["reasoning.encrypted_content"],
      max_output_tokens: 4096,
    });
  });

  test("no tools key without tools; no include for models that refuse encrypted reasoning", () => {
    const body = requestBody({ ...data, model: "gpt-4.1", tools: [], max_output_tokens: undefined });
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("include");
    expect(body).not.toHaveProperty("max_output_tokens");
    expect(body.store).toBe(false);
  });

  test("which models get encrypted reasoning", () => {
    for (const m of [
      "o3",
      "o4-mini",
      "o1-2024-12-17",
      "gpt-5",
      "gpt-5-mini",
      "gpt-5.1-codex",
      "openai/gpt-5",
      "codex-mini-latest",
    ])
      expect([m, supportsEncryptedReasoning(m)]).toEqual([m, true]);
    for (const m of ["gpt-4o", "gpt-4.1-mini", "gpt-5-chat-latest", "gpt-5.1-chat", "mock-model", "omni"])
      expect([m, supportsEncryptedReasoning(m)]).toEqual([m, false]);
  });

  test("a body an earlier module started is kept under ours", () => {
    const body = requestBody({
      ...data,
      body: { reasoning: { effort: "high" }, include: ["file_search_call.results"] },
    });
    expect(body.reasoning).toEqual({ effort: "high" });
    expect(body.include).toEqual(["file_search_call.results", "reasoning.encrypted_content"]);
  });
});

describe("the wire_request hook", () => {
  test("adds `body` and returns every other field unchanged", async () => {
    const data: HookRequest<"wire_request"> = {
      model: "gpt-5",
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "hi" },
      ],
      tools: [],
      hints: { cache_breakpoints: [1] },
      body: null,
      unrelated: { keep: [1, 2, 3] },
    };
    const hook = responsesModule.hooks.wire_request;
    if (!hook) throw new Error("no wire_request hook");
    const out = await hook(structuredClone(data), ctx());
    const { body, ...rest } = out;
    const { body: _null, ...unchanged } = data;
    expect(rest).toEqual(unchanged);
    expect((body as { input: unknown[] }).input).toHaveLength(1);
  });

  test("invalid data is an error naming the field", async () => {
    const hook = responsesModule.hooks.wire_request;
    if (!hook) throw new Error("no wire_request hook");
    expect(() =>
      hook({ model: "m", messages: [{ role: "wizard", content: "x" }], tools: [] } as never, ctx()),
    ).toThrow(/wire_request: invalid data: field messages\[0\]\.role/);
  });
});
