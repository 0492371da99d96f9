// The Responses stream decoder on hand-written event sequences: the variations real and compatible servers
// produce (arguments only in the finished item, a terminal event without output, `error` events), and the
// malformed or cut streams it must classify.
import { describe, expect, test } from "bun:test";
import { ResponsesDecoder } from "../../src/provider/responses-stream.ts";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";

const site = { provider: "responses" as const, model: "gpt-5", apiKey: "sk-test-SECRET0123456789abcdef" };

function decode(events: unknown[]) {
  const emitted: StreamEvent[] = [];
  const d = new ResponsesDecoder(site, [], (ev) => emitted.push(ev));
  for (const e of events) {
    const data = typeof e === "string" ? e : JSON.stringify(e);
    const type = typeof e === "object" && e !== null ? String((e as { type?: unknown }).type) : "message";
    d.event({ event: type, data });
    if (d.done) break;
  }
  return { decoder: d, emitted };
}

function thrown(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error("expected a ProviderError");
}

const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "bash", arguments: "" };
const completed = (output?: unknown[]) => ({
  type: "response.completed",
  response: { id: "resp_1", status: "completed", ...(output ? { output } : {}) },
});

describe("responses stream decoder", () => {
  test("arguments only in function_call_arguments.done or the finished item are taken once", () => {
    const full = { ...call, arguments: '{"command":"ls"}' };
    const { decoder, emitted } = decode([
      { type: "response.output_item.added", output_index: 0, item: call },
      {
        type: "response.function_call_arguments.done",
        output_index: 0,
        item_id: "fc_1",
        arguments: full.arguments,
      },
      { type: "response.output_item.done", output_index: 0, item: full },
      completed([full]),
    ]);
    expect(emitted).toEqual([
      { type: "tool_call", id: "call_1", name: "bash" },
      { type: "tool_call_delta", id: "call_1", arguments: '{"command":"ls"}' },
    ]);
    expect(decoder.finish().response.output).toEqual([full]);
  });

  test("deltas then done: no duplicated argument text; deltas found by item_id when output_index is absent", () => {
    const { emitted } = decode([
      { type: "response.output_item.added", output_index: 3, item: call },
      { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: '{"comm' },
      { type: "response.function_call_arguments.delta", output_index: 3, delta: 'and":"ls"}' },
      { type: "response.function_call_arguments.done", output_index: 3, arguments: '{"command":"ls"}' },
      {
        type: "response.output_item.done",
        output_index: 3,
        item: { ...call, arguments: '{"command":"ls"}' },
      },
      completed(),
    ]);
    const args = emitted
      .filter((e) => e.type === "tool_call_delta")
      .map((e) => (e as { arguments: string }).arguments);
    expect(args.join("")).toBe('{"command":"ls"}');
  });

  test("a terminal event without output gets the finished items, in output order", () => {
    const msg = {
      type: "message",
      id: "m",
      role: "assistant",
      content: [{ type: "output_text", text: "hi" }],
    };
    const reasoning = { type: "reasoning", id: "r", summary: [], encrypted_content: "E" };
    const { decoder, emitted } = decode([
      { type: "response.output_item.done", output_index: 1, item: msg },
      { type: "response.output_item.done", output_index: 0, item: reasoning },
      { type: "response.output_text.delta", output_index: 1, delta: "hi" },
      { type: "response.some_future_event", whatever: { nested: true } },
      completed([]),
    ]);
    expect(emitted).toEqual([{ type: "text_delta", text: "hi" }]);
    expect(decoder.finish().response.output).toEqual([reasoning, msg]);
  });

  test("response.incomplete is terminal too", () => {
    const { decoder } = decode([
      { type: "response.output_text.delta", delta: "cut" },
      {
        type: "response.incomplete",
        response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
      },
    ]);
    expect(decoder.done).toBe(true);
    expect(decoder.finish().response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  test("`error` events and response.failed are classified by the server's code", () => {
    const rate = thrown(() =>
      decode([{ type: "error", code: "rate_limit_exceeded", message: "Rate limit reached", param: null }]),
    );
    expect(rate.kind).toBe("rate_limit");
    expect(rate.message).toContain("Rate limit reached");
    const overflow = thrown(() =>
      decode([
        {
          type: "response.failed",
          response: {
            status: "failed",
            error: {
              code: "context_length_exceeded",
              message: "Your input exceeds the context window of this model.",
            },
          },
        },
      ]),
    );
    expect(overflow.kind).toBe("context_overflow");
    const bare = thrown(() => decode([{ type: "response.failed", response: { status: "failed" } }]));
    expect(bare.kind).toBe("server");
    expect(bare.message).toContain("failed without an error message");
  });

  test("garbage and events of the wrong shape are server errors that never show the key", () => {
    expect(thrown(() => decode([`not json ${site.apiKey}`])).message).not.toContain(site.apiKey);
    expect(thrown(() => decode([{ no_type: true }])).kind).toBe("server");
    expect(thrown(() => decode([{ type: "response.output_text.delta", delta: 5 }])).message).toContain(
      "unexpected stream event",
    );
  });

  test("a stream that ends without its terminal event is a network error", () => {
    const { decoder } = decode([{ type: "response.output_text.delta", delta: "half" }]);
    const err = thrown(() => decoder.finish());
    expect(err.kind).toBe("network");
    expect(err.message).toContain("ended before the reply was complete");
  });
});
