// Anthropic extended thinking: the streamed blocks become reasoning (shown) and signed wire state (kept),
// never the answer's text; the next request with thinking on sends them back unchanged before the
// tool_use blocks, and the mock (checking signatures as the API does) accepts exactly that.
import { describe, expect, test } from "bun:test";
import { renderTranscript } from "../../src/compaction/transcript.ts";
import type { History, Message } from "../../src/contract/history.ts";
import { anthropicRequestBody } from "../../src/provider/anthropic-request.ts";
import { AnthropicDecoder, REDACTED_SHOWN } from "../../src/provider/anthropic-stream.ts";
import { thinkingBlocksOf } from "../../src/provider/anthropic-thinking.ts";
import { resolveModel } from "../../src/provider/models.ts";
import { ProviderError, type StreamEvent } from "../../src/provider/types.ts";
import { mockSignature } from "../fixtures/mock-server/anthropic-thinking.ts";
import { BASIC, collect, mock, provider, rejection, request } from "./helpers.ts";

const data = (v: unknown) => ({ event: "", data: JSON.stringify(v) });

function decode(events: unknown[]) {
  const out: StreamEvent[] = [];
  const dec = new AnthropicDecoder({ provider: "anthropic", model: "c" }, [], (e) => out.push(e));
  for (const ev of events) dec.event(data(ev));
  return { res: dec.finish(), out };
}

const delta = (index: number, d: Record<string, unknown>) => ({
  type: "content_block_delta",
  index,
  delta: d,
});
const start = (index: number, block: Record<string, unknown>) => ({
  type: "content_block_start",
  index,
  content_block: block,
});
const stop = (index: number) => ({ type: "content_block_stop", index });

describe("the decoder", () => {
  test("thinking deltas and signature deltas assemble per block; redacted thinking is kept whole", () => {
    const { res, out } = decode([
      { type: "message_start", message: { usage: { input_tokens: 5, output_tokens: 1 } } },
      start(0, { type: "thinking", thinking: "", signature: "" }),
      delta(0, { type: "thinking_delta", thinking: "Let me " }),
      delta(0, { type: "thinking_delta", thinking: "think." }),
      delta(0, { type: "signature_delta", signature: "sig-A" }),
      delta(0, { type: "signature_delta", signature: "-rest" }),
      stop(0),
      start(1, { type: "redacted_thinking", data: "ENCRYPTED==" }),
      stop(1),
      start(2, { type: "thinking", thinking: "", signature: "" }),
      delta(2, { type: "thinking_delta", thinking: "Again." }),
      delta(2, { type: "signature_delta", signature: "sig-B" }),
      stop(2),
      start(3, { type: "text", text: "" }),
      delta(3, { type: "text_delta", text: "Answer." }),
      stop(3),
      start(4, { type: "tool_use", id: "toolu_1", name: "read", input: {} }),
      delta(4, { type: "input_json_delta", partial_json: '{"path":"a"}' }),
      stop(4),
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ]);
    expect(res.message.content).toBe("Answer.");
    expect(res.message.meta?.reasoning).toBe(`Let me think.\n\n${REDACTED_SHOWN}\n\nAgain.`);
    expect(thinkingBlocksOf(res.message)).toEqual([
      { type: "thinking", thinking: "Let me think.", signature: "sig-A-rest" },
      { type: "redacted_thinking", data: "ENCRYPTED==" },
      { type: "thinking", thinking: "Again.", signature: "sig-B" },
    ]);
    const shown = out.filter((e) => e.type === "reasoning_delta").map((e) => (e as { text: string }).text);
    expect(shown.join("")).toBe(`Let me think.\n\n${REDACTED_SHOWN}\n\nAgain.`);
    expect(out.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text)).toEqual([
      "Answer.",
    ]);
  });
});

const answered: Message = {
  role: "assistant",
  content: "Reading it.",
  tool_calls: [{ id: "call_1", name: "read", arguments: '{"path":"a"}' }],
  meta: { reasoning: "I should read a." },
  adapter: {
    anthropic: {
      thinking: [
        { type: "thinking", thinking: "I should read a.", signature: "SIG" },
        { type: "redacted_thinking", data: "RED" },
      ],
    },
  },
};
const LOOP: History = [
  ...BASIC,
  answered,
  { role: "tool", tool_call_id: "call_1", content: "contents of a" },
];

describe("the request", () => {
  test("with thinking on: thinking config, and the blocks first in their turn, unchanged", () => {
    const body = anthropicRequestBody({
      model: "claude-sonnet-4-5",
      messages: LOOP,
      tools: [],
      thinking_budget: 2048,
    });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    const turn = (body.messages as { role: string; content: unknown[] }[])[1];
    expect(turn?.role).toBe("assistant");
    expect(turn?.content).toEqual([
      { type: "thinking", thinking: "I should read a.", signature: "SIG" },
      { type: "redacted_thinking", data: "RED" },
      { type: "text", text: "Reading it." },
      { type: "tool_use", id: "call_1", name: "read", input: { path: "a" } },
    ]);
    expect(JSON.stringify(body)).not.toContain('"reasoning"');
  });

  test("with thinking off: no thinking config and no thinking blocks", () => {
    const body = anthropicRequestBody({ model: "claude-sonnet-4-5", messages: LOOP, tools: [] });
    expect(body.thinking).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain("I should read a.");
  });

  test("max_tokens stays above the budget when the model's output limit is not known", () => {
    const body = anthropicRequestBody({
      model: "unknown-x",
      messages: BASIC,
      tools: [],
      thinking_budget: 8000,
    });
    expect(body.max_tokens as number).toBeGreaterThan(8000);
  });

  test("a summariser's transcript carries no thinking", () => {
    expect(renderTranscript(LOOP)).not.toContain("I should read a.");
    expect(renderTranscript(LOOP)).not.toContain("SIG");
  });

  test("config: a budget not below max_output_tokens is refused in one line naming the file", () => {
    const config = {
      models: { big: { context_window: 100_000, max_output_tokens: 4096, thinking_budget: 4096 } },
    };
    expect(() => resolveModel("big", config, "/cfg")).toThrow(
      'model "big" in /cfg/config.json: thinking_budget 4096 must be less than max_output_tokens 4096',
    );
  });
});

describe("against the mock", () => {
  const thought = "The file a holds the answer; read it first.";
  const steps = [
    {
      reasoning: thought,
      redacted: "REDACTED-DATA",
      text: "Reading.",
      tool_calls: [{ name: "read", arguments: { path: "a" } }],
    },
    { reasoning: "Now answer.", text: "Done." },
  ];

  test("the signed blocks stream, and go back before the tool_use in the next request", async () => {
    const server = await mock(steps);
    const p = provider("anthropic", server);
    const first = await collect(p, request("anthropic", { thinking_budget: 2048, max_output_tokens: 8192 }));
    expect(first.res.message.content).toBe("Reading.");
    expect(first.res.message.meta?.reasoning).toBe(`${thought}\n\n${REDACTED_SHOWN}`);
    expect(thinkingBlocksOf(first.res.message)).toEqual([
      { type: "thinking", thinking: thought, signature: mockSignature(thought) },
      { type: "redacted_thinking", data: "REDACTED-DATA" },
    ]);
    const call = first.res.message.tool_calls?.[0];
    const history: History = [
      ...BASIC,
      first.res.message,
      { role: "tool", tool_call_id: call?.id ?? "", content: "42" },
    ];
    const second = await collect(
      p,
      request("anthropic", { messages: history, thinking_budget: 2048, max_output_tokens: 8192 }),
    );
    expect(second.res.message.content).toBe("Done.");
    const sent = server.requests[1]?.body as { messages: { content: { type: string }[] }[] };
    expect(sent.messages[1]?.content.map((b) => b.type)).toEqual([
      "thinking",
      "redacted_thinking",
      "text",
      "tool_use",
    ]);
  });

  test("a changed thinking text fails its signature (as the API refuses it)", async () => {
    const server = await mock([{ text: "never" }]);
    const tampered: Message = {
      ...answered,
      adapter: {
        anthropic: {
          thinking: [{ type: "thinking", thinking: "edited", signature: mockSignature("original") }],
        },
      },
    };
    const history: History = [...BASIC, tampered, { role: "tool", tool_call_id: "call_1", content: "x" }];
    const err = await rejection(
      provider("anthropic", server).stream(
        request("anthropic", { messages: history, thinking_budget: 2048, max_output_tokens: 8192 }),
      ),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(String((err as Error).message)).toContain("Invalid `signature`");
  });
});
