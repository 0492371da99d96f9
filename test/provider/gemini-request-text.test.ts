// The Gemini request (the Gemini API and Vertex AI) is sent as text made from each message's parts, kept
// per message, instead of JSON.stringify of the whole body per request. It must be exactly that JSON in
// every case: thought signatures on text and calls, parallel calls and their merged responses, images,
// errors, a call whose name arrives later, tools adapted to Gemini's schema subset, thinking settings.
import { describe, test } from "bun:test";
import type { Message } from "../../src/contract/history.ts";
import { geminiRequestBody } from "../../src/provider/gemini/request.ts";
import { geminiRequestText } from "../../src/provider/gemini/request-text.ts";
import { growingHistory, openingTurns, PNG, sameAsBody } from "../helpers/request-text.ts";

function script(): Message[] {
  return [
    ...openingTurns(),
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "c1", name: "read", arguments: '{"path":"a"}' },
        { id: "c2", name: "grep", arguments: "not json" },
      ],
      adapter: { gemini: { calls: { c1: "sig-c1" } } },
    },
    { role: "tool", tool_call_id: "c1", content: "alpha\n" },
    {
      role: "tool",
      tool_call_id: "c2",
      content: [{ type: "text", text: "matches" }, PNG],
      meta: { is_error: true },
    },
    { role: "assistant", content: "done", adapter: { gemini: { text: "sig-text" } } },
    { role: "tool", tool_call_id: "later", content: "an answer before its call" },
    { role: "assistant", content: "", tool_calls: [{ id: "later", name: "bash", arguments: "{}" }] },
  ];
}

const tools = [
  {
    name: "read",
    description: "read a file",
    input_schema: {
      $schema: "x",
      type: "object",
      additionalProperties: false,
      properties: { p: { type: ["string", "null"] } },
    },
  },
  { name: "now", description: "the time", input_schema: { type: "object", properties: {} } },
];

const expectSame = sameAsBody(geminiRequestText, geminiRequestBody);

describe("gemini request text", () => {
  test("every prefix of a growing history, with tools, limits and thinking", () => {
    for (const live of growingHistory(script())) {
      for (const extra of [{}, { tools }, { max_output_tokens: 300 }, { thinking_budget: 2048 }])
        for (const model of ["gemini-2.5-pro", "gemini-2.0-flash", "my-gemini"])
          expectSame({ model, messages: live, tools: [], ...extra });
    }
  });

  test("a call's name that arrives later changes its response's part; the same messages elsewhere", () => {
    const msgs = script();
    const answer = msgs.slice(0, 8);
    expectSame({ model: "gemini-2.5-pro", messages: answer, tools }); // "later" has no call yet
    expectSame({ model: "gemini-2.5-pro", messages: msgs, tools }); // now it has one
    expectSame({ model: "gemini-2.5-pro", messages: msgs.slice(1), tools: [] });
    expectSame({ model: "gemini-2.5-pro", messages: [], tools: [] });
  });
});
