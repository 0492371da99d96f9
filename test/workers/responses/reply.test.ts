// The responses module's wire_response: a final Responses object → assistant message, usage and stop; and the
// round trip — what one reply stores is what the next request replays.
import { describe, expect, test } from "bun:test";
import { Message } from "../../../src/contract/history.ts";
import { responsesModule } from "../../../workers/responses/index.ts";
import { replyFromResponse } from "../../../workers/responses/reply.ts";
import { toInput } from "../../../workers/responses/request.ts";
import { ResponseObject } from "../../../workers/responses/schemas.ts";

const reasoning = {
  id: "rs_9",
  type: "reasoning",
  summary: [{ type: "summary_text", text: "think" }],
  encrypted_content: "gAAAA-opaque",
};
const message = {
  id: "msg_9",
  type: "message",
  status: "completed",
  role: "assistant",
  content: [
    { type: "output_text", text: "Reading ", annotations: [] },
    { type: "output_text", text: "the file.", annotations: [] },
  ],
};
const call = {
  id: "fc_9",
  type: "function_call",
  status: "completed",
  call_id: "call_9",
  name: "read",
  arguments: '{"path":"a.txt"}',
};

function response(extra: Record<string, unknown>) {
  return ResponseObject.parse({
    id: "resp_9",
    object: "response",
    status: "completed",
    output: [reasoning, message, call],
    usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 64 }, output_tokens: 30 },
    ...extra,
  });
}

describe("final response → reply", () => {
  test("text from message items, calls from function_call items, every item kept for replay", () => {
    const reply = replyFromResponse(response({}));
    expect(reply).toEqual({
      message: {
        role: "assistant",
        content: "Reading the file.",
        tool_calls: [{ id: "call_9", name: "read", arguments: '{"path":"a.txt"}' }],
        adapter: { responses: { items: [reasoning, message, call] } },
      },
      usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 64 },
      stop: "tool_calls",
    });
    expect(Message.safeParse(reply.message).success).toBe(true);
  });

  test("stop reasons: max_output_tokens → length, plain text → end, other incompleteness → other", () => {
    const textOnly = { output: [message] };
    expect(replyFromResponse(response(textOnly)).stop).toBe("end");
    expect(
      replyFromResponse(
        response({ ...textOnly, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }),
      ).stop,
    ).toBe("length");
    expect(
      replyFromResponse(
        response({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }),
      ).stop,
    ).toBe("length");
    expect(
      replyFromResponse(
        response({ ...textOnly, status: "incomplete", incomplete_details: { reason: "content_filter" } }),
      ).stop,
    ).toBe("other");
  });

  test("a refusal is the text; no usage and no output are fine; a call without id or name is left for the core", () => {
    const reply = replyFromResponse(
      ResponseObject.parse({
        status: "completed",
        output: [
          {
            type: "message",
            role: "assistant",
            content: [{ type: "refusal", refusal: "I can't help with that." }],
          },
          { type: "function_call", arguments: "{}" },
        ],
      }),
    );
    expect(reply.message.content).toBe("I can't help with that.");
    expect(reply.message.tool_calls).toEqual([{ id: "", name: "", arguments: "{}" }]);
    expect(reply).not.toHaveProperty("usage");
    const empty = replyFromResponse(ResponseObject.parse({ status: "completed", output: [] }));
    expect(empty).toEqual({ message: { role: "assistant", content: "" }, stop: "end" });
  });

  test("round trip: the stored reasoning item comes back verbatim in the next request", () => {
    const reply = replyFromResponse(response({}));
    const { input } = toInput([
      { role: "system", content: "S" },
      { role: "user", content: "read a.txt" },
      reply.message,
      { role: "tool", tool_call_id: "call_9", content: "alpha" },
    ]);
    expect(input[1]).toEqual(reasoning);
    expect(input.map((i) => i.type)).toEqual([
      "message",
      "reasoning",
      "message",
      "function_call",
      "function_call_output",
    ]);
    expect(input[4]).toEqual({ type: "function_call_output", call_id: "call_9", output: "alpha" });
  });
});

describe("the wire_response hook", () => {
  test("adds message, usage and stop; the response and unrelated fields come back unchanged", async () => {
    const hook = responsesModule.hooks.wire_response;
    if (!hook) throw new Error("no wire_response hook");
    const data = { model: "gpt-5", response: response({}), other: "kept" };
    const out = await hook(structuredClone(data), {
      workspace: "/ws",
      event: "wire_response",
      module: "responses",
      cwd: "/",
      log: () => {},
    });
    expect(out.response).toEqual(data.response);
    expect(out.other).toBe("kept");
    expect(out.stop).toBe("tool_calls");
    expect((out.message as { content: string }).content).toBe("Reading the file.");
  });

  test("a response object of the wrong shape is an error naming the field", () => {
    const hook = responsesModule.hooks.wire_response;
    if (!hook) throw new Error("no wire_response hook");
    expect(() =>
      hook(
        { response: { output: "nope" } },
        { workspace: "/", event: "wire_response", module: "responses", cwd: "/", log: () => {} },
      ),
    ).toThrow(/wire_response: invalid data: field response\.output/);
  });
});
