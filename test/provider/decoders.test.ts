// Server quirks the decoders must absorb, fed as raw SSE events, plus in-stream errors end to end.
import { describe, expect, test } from "bun:test";
import { AnthropicDecoder } from "../../src/provider/anthropic-stream.ts";
import { OpenAiDecoder } from "../../src/provider/openai-stream.ts";
import type { SseEvent } from "../../src/provider/sse.ts";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";
import { collect, FORMATS, mock, provider, rejection, request } from "./helpers.ts";

const site = { provider: "openai" as const, model: "m" };
const data = (v: unknown): SseEvent => ({
  event: "message",
  data: typeof v === "string" ? v : JSON.stringify(v),
});
const delta = (d: unknown, finish: string | null = null) =>
  data({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

function runOpenAi(events: SseEvent[]) {
  const out: StreamEvent[] = [];
  const dec = new OpenAiDecoder(site, [], (e) => out.push(e));
  for (const ev of events) dec.event(ev);
  return { res: dec.finish(), out };
}

describe("OpenAI decoder", () => {
  test("whole calls without index (Ollama style) are separate calls; 'stop' with calls is tool_calls", () => {
    const { res } = runOpenAi([
      delta({ tool_calls: [{ id: "a", function: { name: "read", arguments: '{"path":"x"}' } }] }),
      delta({ tool_calls: [{ id: "b", function: { name: "bash", arguments: '{"command":"ls"}' } }] }),
      delta({}, "stop"),
      data("[DONE]"),
    ]);
    expect(res.message.tool_calls).toEqual([
      { id: "a", name: "read", arguments: '{"path":"x"}' },
      { id: "b", name: "bash", arguments: '{"command":"ls"}' },
    ]);
    expect(res.stop).toBe("tool_calls");
  });

  test("an id repeated on every fragment, and arguments that arrive before the name", () => {
    const { res, out } = runOpenAi([
      delta({ tool_calls: [{ index: 0, id: "x", function: { arguments: '{"a"' } }] }),
      delta({ tool_calls: [{ index: 0, id: "x", function: { name: "edit", arguments: ":1}" } }] }),
      delta({}, "tool_calls"),
    ]);
    expect(res.message.tool_calls).toEqual([{ id: "x", name: "edit", arguments: '{"a":1}' }]);
    expect(out.map((e) => e.type)).toEqual(["tool_call", "tool_call_delta", "tool_call_delta"]);
  });

  test("a call whose name never arrives is still returned, so it can be answered", () => {
    const { res } = runOpenAi([
      delta({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }),
      delta({}, "tool_calls"),
    ]);
    expect(res.message.tool_calls?.[0]?.name).toBe("missing_tool_name");
    expect(res.message.tool_calls?.[0]?.id).toMatch(/^call_/);
  });

  test("usage with cached tokens; content_filter is 'other'", () => {
    const { res } = runOpenAi([
      delta({ content: "x" }, "content_filter"),
      data({
        choices: [],
        usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 64 } },
      }),
      data("[DONE]"),
    ]);
    expect(res.usage).toEqual({ input_tokens: 100, output_tokens: 5, cache_read_tokens: 64 });
    expect(res.stop).toBe("other");
  });

  test("a finish without [DONE] is accepted; neither is a truncated stream", () => {
    expect(runOpenAi([delta({ content: "ok" }, "stop")]).res.stop).toBe("end");
    const err = (() => {
      try {
        runOpenAi([delta({ content: "partial" })]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("network");
  });

  test("a malformed chunk is a classified error, not a crash", () => {
    expect(() => runOpenAi([data("{not json")])).toThrow(/malformed stream chunk/);
  });
});

function runAnthropic(events: unknown[]) {
  const out: StreamEvent[] = [];
  const dec = new AnthropicDecoder({ provider: "anthropic", model: "c" }, [], (e) => out.push(e));
  for (const ev of events) dec.event(data(ev));
  return { res: dec.finish(), out };
}

describe("Anthropic decoder", () => {
  test("a tool without parameters gets '{}'; thinking is reasoning, not content; cache usage adds up", () => {
    const { res } = runAnthropic([
      {
        type: "message_start",
        message: {
          usage: {
            input_tokens: 10,
            cache_read_input_tokens: 500,
            cache_creation_input_tokens: 40,
            output_tokens: 1,
          },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "list", input: {} },
      },
      { type: "content_block_stop", index: 1 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } },
      { type: "message_stop" },
    ]);
    expect(res.message).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "toolu_1", name: "list", arguments: "{}" }],
      meta: { reasoning: "hmm" },
      adapter: { anthropic: { thinking: [{ type: "thinking", thinking: "hmm", signature: "" }] } },
    });
    expect(res.usage).toEqual({
      input_tokens: 550,
      output_tokens: 12,
      cache_read_tokens: 500,
      cache_write_tokens: 40,
    });
    expect(res.stop).toBe("tool_calls");
  });

  test("max_tokens is a length stop; unknown event types are ignored", () => {
    const { res } = runAnthropic([
      { type: "message_start", message: { usage: { input_tokens: 3 } } },
      { type: "some_future_event", whatever: 1 },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "abc" } },
      { type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    ]);
    expect(res.stop).toBe("length");
    expect(res.message.content).toBe("abc");
  });

  test("an error event is classified (overloaded → server, retryable)", () => {
    let err: unknown;
    try {
      runAnthropic([{ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("server");
    expect((err as ProviderError).retryable).toBe(true);
  });
});

for (const format of FORMATS) {
  describe(`${format}: errors inside the stream`, () => {
    test("before any content: retried", async () => {
      const server = await mock([{ stream_error: "server" }, { text: "recovered" }]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(res.message.content).toBe("recovered");
      expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
    });

    test("after content: classified and retried like a 5xx, the partial text discarded", async () => {
      const server = await mock([{ text: "some text", stream_error: "server" }, { text: "again" }]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(res.message.content).toBe("again");
      const retry = events.find((e) => e.type === "retry") as { reason: string; discarded?: boolean };
      expect(retry.reason).toContain("error in stream");
      expect(retry.discarded).toBe(true);
      expect(server.requests).toHaveLength(2);
    });

    test("after content, a kind that is not transient: thrown, not retried, partial text on the error", async () => {
      const server = await mock([{ text: "some text", stream_error: "overflow" }, { text: "never" }]);
      const err = await rejection(provider(format, server).stream(request(format)));
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).kind).toBe("context_overflow");
      expect((err as ProviderError).partialText).toBe("some text");
      expect(server.requests).toHaveLength(1);
    });

    test("an overflow reported in the stream is context_overflow", async () => {
      const server = await mock([{ stream_error: "overflow" }]);
      const err = await rejection(provider(format, server).stream(request(format)));
      expect((err as ProviderError).kind).toBe("context_overflow");
      expect(server.requests).toHaveLength(1);
    });
  });
}
