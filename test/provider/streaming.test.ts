// Both wire formats end to end against the mock server: text, tool calls, stop reasons, usage.
import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "../../src/provider/types.ts";
import { collect, FORMATS, MODEL, mock, provider, request } from "./helpers.ts";

function textOf(events: StreamEvent[]): string {
  return events.map((e) => (e.type === "text_delta" ? e.text : "")).join("");
}

function argsById(events: StreamEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of events) if (e.type === "tool_call_delta") out[e.id] = (out[e.id] ?? "") + e.arguments;
  return out;
}

for (const format of FORMATS) {
  describe(`${format}: streaming`, () => {
    test("text arrives as several deltas and forms the final message", async () => {
      const text = "Hello there — streaming works, with ünïcödé and emoji 👋🏽 across many chunks.";
      const server = await mock([{ text }]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(3);
      expect(textOf(events)).toBe(text);
      expect(res.message).toEqual({ role: "assistant", content: text });
      expect(res.stop).toBe("end");
      expect(server.requests[0]?.format).toBe(format);
      const body = server.requests[0]?.body as { stream?: unknown };
      expect(body.stream).toBe(true);
    });

    test("parallel tool calls with argument deltas are assembled per call", async () => {
      const server = await mock([
        {
          text: "Let me look.",
          tool_calls: [
            { name: "read", arguments: { path: "src/a very long file name.ts", offset: 10 }, id: "call_A" },
            { name: "bash", arguments: { command: "ls -la && echo 'done'" }, id: "call_B" },
            { name: "grep", arguments: { pattern: "ünï", path: "." }, id: "call_C" },
          ],
        },
      ]);
      const { res, events } = await collect(provider(format, server), request(format));
      expect(res.stop).toBe("tool_calls");
      expect(res.message.content).toBe("Let me look.");
      const calls = res.message.tool_calls ?? [];
      expect(calls.map((c) => [c.id, c.name])).toEqual([
        ["call_A", "read"],
        ["call_B", "bash"],
        ["call_C", "grep"],
      ]);
      expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual({
        path: "src/a very long file name.ts",
        offset: 10,
      });
      expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ command: "ls -la && echo 'done'" });
      expect(JSON.parse(calls[2]?.arguments ?? "")).toEqual({ pattern: "ünï", path: "." });
      // Announced before their argument deltas, and the deltas add up to the final arguments.
      const announced = events.filter((e) => e.type === "tool_call").map((e) => e.id);
      expect(announced).toEqual(["call_A", "call_B", "call_C"]);
      expect(events.filter((e) => e.type === "tool_call_delta").length).toBeGreaterThan(6);
      expect(argsById(events)).toEqual(Object.fromEntries(calls.map((c) => [c.id, c.arguments])));
    });

    test("a length stop is reported as length", async () => {
      const server = await mock([{ text: "cut sho", stop: "length" }]);
      const { res } = await collect(provider(format, server), request(format));
      expect(res.stop).toBe("length");
      expect(res.message.content).toBe("cut sho");
    });

    test("usage is reported: explicit figures, or estimated from the request size", async () => {
      const server = await mock([
        { text: "a", usage: { input_tokens: 1234, output_tokens: 56 } },
        { text: "b" },
      ]);
      const p = provider(format, server);
      const first = await collect(p, request(format));
      expect(first.res.usage).toEqual({ input_tokens: 1234, output_tokens: 56 });
      const big = "x".repeat(40_000);
      const second = await collect(
        p,
        request(format, {
          messages: [
            { role: "system", content: "s" },
            { role: "user", content: big },
          ],
        }),
      );
      const sent = JSON.stringify(server.requests[1]?.body).length;
      expect(second.res.usage?.input_tokens).toBe(Math.ceil(sent / 4));
      expect(second.res.usage?.input_tokens).toBeGreaterThan(10_000);
    });

    test("slow streams (a pause between every chunk) still complete intact", async () => {
      const text = "one two three four five six seven";
      const server = await mock([
        { text, chunk_delay_ms: 25, tool_calls: [{ name: "t", arguments: { a: 1 } }] },
      ]);
      const { res } = await collect(provider(format, server), request(format));
      expect(res.message.content).toBe(text);
      expect(res.message.tool_calls?.[0]?.arguments).toBe('{"a":1}');
    });

    test("invalid and empty tool arguments are kept as the model's raw text", async () => {
      const server = await mock([
        {
          tool_calls: [
            { name: "read", arguments: '{"path": "a.txt"', id: "c1" },
            { name: "bash", arguments: "", id: "c2" },
          ],
        },
      ]);
      const { res } = await collect(provider(format, server), request(format));
      const calls = res.message.tool_calls ?? [];
      expect(calls[0]?.arguments).toBe('{"path": "a.txt"');
      // Anthropic's wire cannot express "no arguments at all": a call without input is the empty object.
      expect(calls[1]?.arguments).toBe(format === "openai" ? "" : "{}");
    });
  });
}

test("openai: system message first, max_completion_tokens on api.openai.com, max_tokens elsewhere", async () => {
  const server = await mock([{ text: "ok" }]);
  await collect(provider("openai", server), request("openai", { max_output_tokens: 777 }));
  const body = server.requests[0]?.body as Record<string, unknown>;
  expect((body.messages as unknown[])[0]).toEqual({ role: "system", content: "You are a test." });
  expect(body.max_tokens).toBe(777);
  expect(body.stream_options).toEqual({ include_usage: true });
  expect(body.model).toBe(MODEL.openai);
});

test("anthropic: top-level system, max_tokens from the model table when not given", async () => {
  const server = await mock([{ text: "ok" }]);
  await collect(provider("anthropic", server), request("anthropic"));
  const body = server.requests[0]?.body as Record<string, unknown>;
  expect(body.system).toBe("You are a test.");
  expect(body.max_tokens).toBe(64_000);
  expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(["user"]);
});
