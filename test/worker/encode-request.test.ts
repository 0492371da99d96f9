// Request lines assembled from cached message text must be exactly what JSON.stringify writes, whatever
// the content: unicode, escapes, lone surrogates, odd values, arrays that are not message lists.
import { describe, expect, test } from "bun:test";
import type { History, Message } from "../../src/contract/history.ts";
import {
  CACHE_MAX_CHARS,
  cachedMessageChars,
  encodeData,
  encodeRequest,
  encodeRequestBytes,
  type SentArray,
} from "../../src/worker/encode-request.ts";
import { summarizeHistory } from "../../src/worker/history-summary.ts";
import { syntheticHistory } from "../compaction/helpers.ts";

const tricky: Message[] = [
  { role: "system", content: 'système — ünïcödé, 中文, emoji 🧪, tab\t, quote ", backslash \\, nl\n' },
  {
    role: "user",
    content: "control \u0000\u0001\u001f and \u2028\u2029 separators, lone \ud800 surrogate \udfff",
  },
  {
    role: "assistant",
    content: [{ type: "text", text: "</script><!-- -->" }],
    tool_calls: [{ id: "c1", name: "read", arguments: '{"path":"a \\"b\\".ts"}' }],
    meta: { ts: "2024-01-01T00:00:00.000Z", usage: { input_tokens: 1e21, output_tokens: -0 }, n: 1.5 },
  },
  { role: "tool", tool_call_id: "c1", content: "x".repeat(10_000) },
];

function request(data: Record<string, unknown>, module?: string) {
  return module === undefined
    ? { id: 7, event: "budget", workspace: '/w/ä "q"', data }
    : { id: 7, event: "budget", workspace: '/w/ä "q"', data, module };
}

function expectSame(data: Record<string, unknown>, module?: string): void {
  const req = request(data, module);
  expect(encodeRequest(req)).toBe(JSON.stringify(req));
  // And again, now from the cache, and as the bytes that go on the wire.
  expect(encodeRequest(req)).toBe(JSON.stringify(req));
  const sent: SentArray[] = [];
  const bytes = encodeRequestBytes(req, sent);
  expect(Buffer.from(bytes).toString("utf8")).toBe(`${JSON.stringify(req)}\n`);
  // Each large array reported is the bytes of that array's JSON, within the line.
  for (const s of sent) {
    expect(Buffer.from(s.bytes).toString("utf8")).toBe(JSON.stringify(s.value));
    expect(s.bytes.buffer).toBe(bytes.buffer);
  }
}

describe("encodeRequest is JSON.stringify", () => {
  test("unicode, escapes, lone surrogates, numbers", () => {
    expectSame({ history: tricky, model: { name: "m" } });
    expectSame({ messages: tricky.slice(1), cut: 3, state: null }, "compact");
  });

  test("a realistic history in every message field, cached or not", () => {
    const h: History = syntheticHistory({ turns: 30 });
    expectSame({ model: { name: "m", context_window: 1000 }, history: h, tools: [], state: { armed: true } });
    expectSame({ messages: h.slice(1, 20), cut: 20, state: { a: [1, 2] } });
    expectSame({
      candidate: [h[0], { role: "user", content: "s", meta: { summary: true } }, ...h.slice(20)],
    });
  });

  test("members JSON.stringify leaves out, and empty data", () => {
    expectSame({});
    expectSame({ a: undefined, f: () => 1, s: Symbol("x"), history: [], b: null });
    const withUndefined = { role: "user", content: "x", meta: undefined } as unknown as Message;
    expectSame({ history: [tricky[0], withUndefined] });
  });

  test("arrays that are not plain message lists fall back to JSON.stringify", () => {
    // A hole, non-objects, a Date (toJSON), a class instance, nested arrays.
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const holes = [tricky[0], , tricky[1]];
    expectSame({ history: holes });
    expectSame({ history: [1, "two", null, [3]] });
    expectSame({ messages: [new Date(0), tricky[0]] });
    class Boxed {
      role = "user";
      content = "boxed";
    }
    expectSame({ candidate: [new Boxed()] });
    expectSame({ history: "not an array", messages: { 0: tricky[0] } });
  });

  test("a toJSON anywhere in the data is honoured exactly", () => {
    const when = new Date(86_400_000);
    expectSame({ when, history: tricky });
    expectSame({ custom: { toJSON: (key: string) => `key=${key}` }, history: tricky });
    const data = { history: tricky, toJSON: () => ({ replaced: true }) };
    expect(encodeData(data)).toBe(JSON.stringify(data));
  });

  test("the cache is keyed by message object: a new object is encoded anew", () => {
    const m: Message = { role: "user", content: "first" };
    expectSame({ history: [tricky[0], m] });
    const changed: Message = { ...m, content: "second" };
    expectSame({ history: [tricky[0], changed] });
    expect(encodeData({ history: [changed] })).toContain("second");
  });
});

describe("the per-message cache is bounded", () => {
  test("more message text than CACHE_MAX_CHARS keeps the cache at the cap, output unchanged", () => {
    const big = "y".repeat(256 * 1024);
    const count = Math.ceil((2 * CACHE_MAX_CHARS) / big.length);
    const messages: Message[] = Array.from({ length: count }, (_, i) => ({
      role: "user",
      content: `${i}${big}`,
    }));
    const data = { history: messages };
    expect(encodeData(data)).toBe(JSON.stringify(data));
    expect(cachedMessageChars()).toBeLessThanOrEqual(CACHE_MAX_CHARS);
    expect(cachedMessageChars()).toBeGreaterThan(CACHE_MAX_CHARS / 2);
    // Evicted messages are encoded again, still exactly.
    expect(encodeData(data)).toBe(JSON.stringify(data));
    expect(cachedMessageChars()).toBeLessThanOrEqual(CACHE_MAX_CHARS);
  });
});

describe("a history summary goes out from its kept column bytes", () => {
  test("as JSON.stringify writes it, while the history grows, is changed in the middle and cut back", () => {
    const h: unknown[] = [];
    const system = { role: "system", content: "s" };
    for (const m of [system, ...tricky, ...syntheticHistory({ turns: 15 }).slice(1)]) {
      h.push(m);
      expectSame({ model: "m", history_summary: summarizeHistory(h), tools: [] });
    }
    h[2] = { role: "user", content: "changed, ünï" };
    expectSame({ history_summary: summarizeHistory(h) });
    h.length = 3;
    expectSame({ history_summary: summarizeHistory(h), usage: { messages: 2 } });
    expectSame({ history_summary: summarizeHistory([]) });
  });

  test("a summary taken earlier still says what the history was then", () => {
    const h: unknown[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
    ];
    const early = summarizeHistory(h);
    const text = JSON.stringify({ history_summary: early });
    const bytes = encodeRequestBytes(request({ history_summary: early }));
    for (let i = 0; i < 2000; i++) h.push({ role: "user", content: `more ${i}` });
    summarizeHistory(h);
    expect(JSON.stringify({ history_summary: early })).toBe(text);
    expect(new TextDecoder().decode(encodeRequestBytes(request({ history_summary: early })))).toBe(
      new TextDecoder().decode(bytes),
    );
    expect(early.toJSON().count).toBe(2);
  });
});

describe("kept bytes: the tool declarations and long strings", () => {
  const decl = (name: string) => ({
    name,
    description: `${name} — ünïcödé ${"d".repeat(900)}`,
    input_schema: { type: "object", properties: { path: { type: "string" } } },
  });

  test("the same tool list goes out as JSON.stringify writes it, and a changed element is seen", () => {
    const tools = [decl("read"), decl("write"), decl("bash")];
    const system = `system — ${"s".repeat(2000)} \ud800 lone`;
    expectSame({ system, tools, history_summary: { n: 1 } });
    expectSame({ system, tools, history_summary: { n: 2 } });
    // The same array with one element replaced (and then one more added): the kept bytes are not used.
    tools[1] = decl("edit");
    expectSame({ system, tools });
    tools.push(decl("grep"));
    expectSame({ system, tools });
    const sent: SentArray[] = [];
    encodeRequestBytes(request({ tools }), sent);
    expect(sent.map((s) => s.value)).toEqual([tools]);
    expect(sent[0]?.value).not.toBe(tools);
  });

  test("more long strings than are kept: each still exact", () => {
    for (let i = 0; i < 20; i++)
      expectSame({ system: `prompt ${i} ${"ü".repeat(1500)}`, prompt: "x".repeat(1024) });
  });
});
