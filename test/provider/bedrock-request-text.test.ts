// The Bedrock request is sent as text made from each message's JSON, kept per message, instead of
// JSON.stringify of the whole body per request. It must be exactly that JSON in every case: merged
// same-role turns, tool results and images, cache points on the system prompt and on turns, thinking,
// tools, a growing history and the same message in two histories.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Message } from "../../src/contract/history.ts";
import { hashedBody } from "../../src/provider/bedrock/body-hash.ts";
import {
  bedrockRequestBody,
  bedrockRequestParts,
  bedrockRequestText,
} from "../../src/provider/bedrock/request.ts";
import type { ModelRequest } from "../../src/provider/types.ts";
import { growingHistory, openingTurns, PNG, sameAsBody } from "../helpers/request-text.ts";

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

function script(): Message[] {
  return [
    ...openingTurns(),
    {
      role: "assistant",
      content: "let me look",
      tool_calls: [
        { id: "call_1", name: "bash", arguments: '{"command":"ls"}' },
        { id: "call_2", name: "read", arguments: "not json" },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "a.png\n" },
    { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "the image" }, PNG] },
    { role: "assistant", content: "" },
    { role: "assistant", content: "done", meta: { ts: "2026-01-01T00:00:00Z" } },
    { role: "tool", tool_call_id: "call_3", content: "", meta: { is_error: true } },
  ];
}

const tools = [{ name: "bash", description: "run", input_schema: { type: "object" } }];

const expectSame = sameAsBody(bedrockRequestText, bedrockRequestBody);

describe("bedrock request text", () => {
  test("every prefix of a growing history, with and without tools, thinking and cache points", () => {
    for (const live of growingHistory(script())) {
      for (const extra of [
        {},
        { tools },
        { thinking_budget: 2048, max_output_tokens: 1024 },
        { hints: { cache_breakpoints: [0, 2, 4, 5, 7] }, tools },
        { max_output_tokens: 300 },
      ])
        expectSame({ model: MODEL, messages: live, tools: [], ...extra });
    }
  });

  test("a history without a system message, and one of a model that does not think", () => {
    expectSame({ model: MODEL, messages: script().slice(1), tools });
    expectSame({ model: "amazon.nova-pro-v1:0", messages: script(), tools: [], thinking_budget: 2048 });
    expectSame({ model: MODEL, messages: [], tools: [] });
  });

  test("the same messages in another history, and the same tool list again", () => {
    const msgs = script();
    expectSame({ model: MODEL, messages: msgs, tools });
    expectSame({ model: MODEL, messages: [msgs[0] as Message, ...msgs.slice(3)], tools });
    expectSame({ model: MODEL, messages: msgs, tools, thinking_budget: 4096 });
  });

  test("the body's SHA-256, resumed per history, is the hash of the very text sent", () => {
    const all = script();
    const live: Message[] = [];
    const check = (req: ModelRequest) => {
      const { text, sha256 } = hashedBody(req.messages, bedrockRequestParts(req));
      expect(text).toBe(JSON.stringify(bedrockRequestBody(req)));
      expect(sha256).toBe(createHash("sha256").update(text).digest("hex"));
    };
    for (const [i, m] of [...all, ...all].entries()) {
      live.push(m);
      // Cache points that move every request, thinking on and off, tools now and then.
      const hints = { cache_breakpoints: [0, i, Math.max(0, i - 2)] };
      check({ model: MODEL, messages: live, tools: i % 3 === 0 ? tools : [], hints });
      check({ model: MODEL, messages: live, tools: [], ...(i % 2 ? { thinking_budget: 2048 } : {}) });
    }
    check({ model: MODEL, messages: live.slice(0, 3), tools: [] }); // another, shorter history
    check({ model: MODEL, messages: [], tools: [] });
  });
});
