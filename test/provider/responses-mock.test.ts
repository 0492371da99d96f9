// The mock server's Responses format itself, spoken to with plain fetch: the SSE event sequence, the
// non-stream response object, and the request checks that make client mistakes fail a test.
import { describe, expect, test } from "bun:test";
import { readSse } from "../../src/provider/sse.ts";
import { mock } from "./helpers.ts";

async function post(url: string, body: unknown) {
  const res = await fetch(`${url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test-x" },
    body: JSON.stringify(body),
  });
  return res;
}

const base = { model: "gpt-5", store: false, input: [{ role: "user", content: "hi" }] };

async function problem(body: unknown): Promise<{ status: number; message: string }> {
  const server = await mock([{ text: "never" }]);
  const res = await post(server.url, body);
  const json = (await res.json()) as { error: { message: string } };
  return { status: res.status, message: json.error.message };
}

describe("mock /v1/responses", () => {
  test("stream: created, items with deltas, completed with the whole response and usage", async () => {
    const server = await mock([
      {
        reasoning: "think",
        text: "Hi!",
        tool_calls: [{ name: "read", arguments: { path: "a" } }],
        usage: { input_tokens: 7, output_tokens: 3 },
      },
    ]);
    const res = await post(server.url, { ...base, stream: true, include: ["reasoning.encrypted_content"] });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events: { event: string; data: Record<string, unknown> }[] = [];
    for await (const ev of readSse(res.body as ReadableStream<Uint8Array>))
      events.push({ event: ev.event, data: JSON.parse(ev.data) });
    const types = events.map((e) => e.event);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    for (const t of [
      "response.output_item.added",
      "response.output_text.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
    ])
      expect(types).toContain(t);
    const final = events.at(-1)?.data.response as Record<string, unknown>;
    expect(final.status).toBe("completed");
    expect(final.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    const output = final.output as Record<string, unknown>[];
    expect(output.map((i) => i.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(output[0]?.encrypted_content).toEqual(expect.any(String));
    expect(output[2]).toMatchObject({ call_id: "call_mock_0_0", name: "read", arguments: '{"path":"a"}' });
    expect(server.requests[0]?.format).toBe("responses");
  });

  test("reasoning has encrypted content only when the request includes it; non-stream JSON is the response", async () => {
    const server = await mock([{ reasoning: "r", text: "ok", stop: "length" }]);
    const res = await post(server.url, base);
    expect(res.headers.get("content-type")).toContain("application/json");
    const json = (await res.json()) as Record<string, unknown>;
    expect(json).toMatchObject({
      object: "response",
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    const [reasoning] = json.output as Record<string, unknown>[];
    expect(reasoning?.type).toBe("reasoning");
    expect(reasoning).not.toHaveProperty("encrypted_content");
  });

  test("errors are worded like the real API's, overflow included", async () => {
    const server = await mock([{ error: "overflow" }, { error: "auth" }]);
    const overflow = await post(server.url, { ...base, stream: true });
    expect(overflow.status).toBe(400);
    expect(await overflow.json()).toMatchObject({
      error: {
        code: "context_length_exceeded",
        param: "input",
        message: expect.stringContaining("context window"),
      },
    });
    const auth = await post(server.url, { ...base, stream: true });
    expect(auth.status).toBe(401);
  });

  test("rejects what the real API rejects", async () => {
    expect(await problem({ ...base, messages: [] })).toMatchObject({
      status: 400,
      message: "Unknown parameter: 'messages'.",
    });
    expect(
      await problem({ ...base, tools: [{ type: "function", function: { name: "read", parameters: {} } }] }),
    ).toMatchObject({ status: 400, message: "Missing required parameter: 'tools[0].name'." });
    expect(await problem({ ...base, max_output_tokens: 8 })).toMatchObject({ status: 400 });
    const callItem = { type: "function_call", call_id: "c1", name: "read", arguments: "{}" };
    expect(await problem({ ...base, input: [callItem] })).toMatchObject({
      message: "No tool output found for function call c1.",
    });
    expect(
      await problem({ ...base, input: [{ type: "function_call_output", call_id: "c9", output: "x" }] }),
    ).toMatchObject({ message: "No tool call found for function call output with call_id c9." });
    const stale = await problem({ ...base, input: [{ type: "reasoning", id: "rs_1", summary: [] }] });
    expect(stale.status).toBe(404);
    expect(stale.message).toContain("Items are not persisted when `store` is set to false");
    expect(
      (await problem({ ...base, input: [{ type: "message", id: "msg_1", role: "assistant", content: [] }] }))
        .status,
    ).toBe(404);
    expect(
      await problem({
        ...base,
        input: [{ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "forged" }],
      }),
    ).toMatchObject({ status: 400, message: "The encrypted content for item rs_1 could not be verified." });
  });
});
