// History validation: each rule has a failing case, and the reason names the offending message.
import { describe, expect, test } from "bun:test";
import type { History, Message } from "../../src/contract/history.ts";
import { assertValidHistory, HistoryError, validateHistory } from "../../src/lib/validate-history.ts";

const sys: Message = { role: "system", content: "you are i" };
const user = (text: string): Message => ({ role: "user", content: text });
const asst = (text: string, ...ids: string[]): Message => ({
  role: "assistant",
  content: text,
  ...(ids.length
    ? { tool_calls: ids.map((id) => ({ id, name: "bash", arguments: '{"command":"ls"}' })) }
    : {}),
});
const tool = (id: string): Message => ({ role: "tool", tool_call_id: id, content: `result ${id}` });

describe("validateHistory: valid histories", () => {
  test("plain conversation, tool batches, parts and images", () => {
    const h: History = [
      sys,
      user("hi"),
      asst("", "a", "b"),
      tool("a"),
      tool("b"),
      asst("done"),
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", media_type: "image/png", data: "iVBORw0KGgo=" },
        ],
        meta: { ts: 1 },
      },
      asst("ok", "c"),
      tool("c"),
    ];
    expect(validateHistory(h)).toBeUndefined();
    expect(() => assertValidHistory(h)).not.toThrow();
  });

  test("answers may come in any order within their batch", () => {
    expect(validateHistory([sys, user("x"), asst("", "a", "b"), tool("b"), tool("a")])).toBeUndefined();
  });

  test("an assistant message with an empty tool_calls list needs no answers", () => {
    expect(
      validateHistory([sys, user("x"), { role: "assistant", content: "", tool_calls: [] }]),
    ).toBeUndefined();
  });
});

describe("validateHistory: each rule fails", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an array", { role: "system" }, /^history: /],
    ["empty", [], /history is empty/],
    ["first message not system", [user("x")], /^history\[0\]: role is "user"/],
    [
      "second system message",
      [sys, user("x"), sys],
      /^history\[2\]: a system message may only be history\[0\]/,
    ],
    ["unknown role", [sys, { role: "bot", content: "x" }], /^history\[1\]:.*role/],
    ["unknown key", [sys, { role: "user", content: "x", extra: 1 }], /^history\[1\]:.*extra/i],
    ["content not string or parts", [sys, { role: "user", content: 5 }], /^history\[1\]: field content/],
    ["bad part", [sys, { role: "user", content: [{ type: "video" }] }], /^history\[1\]: field content/],
    [
      "bad image media type",
      [sys, { role: "user", content: [{ type: "image", media_type: "text/plain", data: "" }] }],
      /^history\[1\]: field content\[0\]\.media_type: must be an image media type/,
    ],
    [
      "tool call with empty id",
      [sys, { role: "assistant", content: "", tool_calls: [{ id: "", name: "x", arguments: "{}" }] }],
      /^history\[1\]: field tool_calls\[0\]\.id/,
    ],
    [
      "arguments not a string",
      [sys, { role: "assistant", content: "", tool_calls: [{ id: "a", name: "x", arguments: {} }] }],
      /^history\[1\]: field tool_calls\[0\]\.arguments/,
    ],
    [
      "unanswered call",
      [sys, user("x"), asst("", "a"), user("y")],
      /^history\[2\]: tool call "a" not answered/,
    ],
    [
      "partly answered batch",
      [sys, user("x"), asst("", "a", "b"), tool("a"), asst("next")],
      /^history\[2\]: tool call "b" not answered/,
    ],
    [
      "unanswered call at the end",
      [sys, user("x"), asst("", "a")],
      /^history\[2\]: tool call "a" not answered/,
    ],
    [
      "tool message after a user message",
      [sys, user("x"), tool("a")],
      /^history\[2\]: tool result for unknown tool call "a"/,
    ],
    [
      "answer outside its batch",
      [sys, user("x"), asst("", "a"), tool("a"), user("y"), tool("a")],
      /^history\[5\]: tool result for call "a" of history\[2\] is not in the batch/,
    ],
    [
      "answer in a later batch",
      [sys, user("x"), asst("", "a", "b"), tool("a"), asst("", "c"), tool("b"), tool("c")],
      /^history\[2\]: tool call "b" not answered/,
    ],
    [
      "orphan in a batch",
      [sys, user("x"), asst("", "a"), tool("a"), tool("zzz")],
      /^history\[4\]: tool result for unknown tool call "zzz" \(history\[2\] made no such call\)/,
    ],
    [
      "call answered twice",
      [sys, user("x"), asst("", "a"), tool("a"), tool("a")],
      /^history\[4\]: tool call "a" of history\[2\] is answered more than once/,
    ],
    [
      "duplicate call id in one message",
      [sys, user("x"), asst("", "a", "a")],
      /^history\[2\]: duplicate tool call id "a"/,
    ],
    [
      "duplicate call id across messages",
      [sys, user("x"), asst("", "a"), tool("a"), asst("", "a"), tool("a")],
      /^history\[4\]: duplicate tool call id "a"/,
    ],
    [
      "tool message without tool_call_id",
      [sys, { role: "tool", content: "x" }],
      /^history\[1\]: tool message without tool_call_id/,
    ],
    [
      "tool_call_id on a user message",
      [sys, { role: "user", content: "x", tool_call_id: "a" }],
      /^history\[1\]: only tool messages may carry tool_call_id/,
    ],
    [
      "tool_calls on a user message",
      [sys, { role: "user", content: "x", tool_calls: [{ id: "a", name: "b", arguments: "" }] }],
      /^history\[1\]: only assistant messages may carry tool_calls/,
    ],
  ];
  for (const [name, h, reason] of cases) {
    test(name, () => {
      const r = validateHistory(h);
      expect(r).toMatch(reason);
      expect(() => assertValidHistory(h)).toThrow(HistoryError);
    });
  }
});

describe("allowPendingToolCalls", () => {
  test("the final assistant message may have unanswered calls, all or some", () => {
    expect(
      validateHistory([sys, user("x"), asst("", "a", "b")], { allowPendingToolCalls: true }),
    ).toBeUndefined();
    expect(
      validateHistory([sys, user("x"), asst("", "a", "b"), tool("a")], { allowPendingToolCalls: true }),
    ).toBeUndefined();
  });

  test("an earlier assistant message may not", () => {
    expect(
      validateHistory([sys, user("x"), asst("", "a"), user("y")], { allowPendingToolCalls: true }),
    ).toMatch(/^history\[2\]: tool call "a" not answered/);
  });
});

test("large histories are checked structurally, not skipped", () => {
  const h: Message[] = [sys];
  for (let i = 0; i < 1000; i++) h.push(user(`q${i}`), asst("", `c${i}`), tool(`c${i}`));
  expect(validateHistory(h)).toBeUndefined();
  h[2500] = { ...tool("c833"), tool_call_id: "nope" };
  expect(validateHistory(h)).toMatch(/^history\[2500\]/);
});

describe("validation resumes where it left off on a growing history", () => {
  const sys = { role: "system", content: "s" };
  const call = (id: string) => ({
    role: "assistant",
    content: "",
    tool_calls: [{ id, name: "bash", arguments: "{}" }],
  });
  const result = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });

  test("each step agrees with a validation from scratch (a fresh copy of the array)", () => {
    const steps: unknown[] = [
      { role: "user", content: "go" },
      call("a"),
      result("a"),
      call("b"),
      result("b"),
      { role: "assistant", content: "done" },
      { role: "user", content: "again" },
      call("a"), // duplicate id: invalid from here on
    ];
    const h: unknown[] = [sys];
    for (const m of steps) {
      h.push(m);
      for (const allowPendingToolCalls of [true, false]) {
        const opts = { allowPendingToolCalls };
        expect(validateHistory(h, opts)).toBe(validateHistory([...h], opts));
      }
    }
    expect(validateHistory(h)).toBe('history[8]: duplicate tool call id "a"');
  });

  test("a message replaced in place is seen, not skipped", () => {
    const h: unknown[] = [sys, { role: "user", content: "go" }, call("a"), result("a")];
    expect(validateHistory(h)).toBeUndefined();
    h[1] = { role: "system", content: "second system" };
    expect(validateHistory(h)).toBe("history[1]: a system message may only be history[0]");
    h[1] = { role: "user", content: "go" };
    expect(validateHistory(h)).toBeUndefined();
    h.length = 3;
    expect(validateHistory(h)).toBe(
      'history[2]: tool call "a" not answered by a tool message right after it',
    );
  });

  test("a batch left open with allowPendingToolCalls is checked when it continues", () => {
    const h: unknown[] = [sys, { role: "user", content: "go" }, call("a")];
    expect(validateHistory(h, { allowPendingToolCalls: true })).toBeUndefined();
    h.push({ role: "user", content: "interrupting" });
    expect(validateHistory(h, { allowPendingToolCalls: true })).toBe(
      'history[2]: tool call "a" not answered by a tool message right after it',
    );
  });
});
