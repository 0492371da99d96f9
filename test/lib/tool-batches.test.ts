// Safe cut points and open tool batches.
import { describe, expect, test } from "bun:test";
import type { History, Message } from "../../src/contract/history.ts";
import {
  answerPendingToolCalls,
  isSafeCut,
  latestCut,
  pendingToolCalls,
  turnStarts,
} from "../../src/lib/tool-batches.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";

const sys: Message = { role: "system", content: "s" };
const user = (t: string): Message => ({ role: "user", content: t });
const asst = (t: string, ...ids: string[]): Message => ({
  role: "assistant",
  content: t,
  ...(ids.length ? { tool_calls: ids.map((id) => ({ id, name: "read", arguments: "{}" })) } : {}),
});
const tool = (id: string): Message => ({ role: "tool", tool_call_id: id, content: "r" });

//                 0    1          2              3          4          5            6          7
const h: History = [
  sys,
  user("a"),
  asst("", "x", "y"),
  tool("x"),
  tool("y"),
  asst("", "z"),
  tool("z"),
  asst("done"),
];

describe("isSafeCut", () => {
  test("user and assistant messages outside batches are safe", () => {
    expect(isSafeCut(h, 1)).toBe(true);
    expect(isSafeCut(h, 2)).toBe(true);
    expect(isSafeCut(h, 5)).toBe(true);
    expect(isSafeCut(h, 7)).toBe(true);
  });

  test("the system message, tool messages and out-of-range indexes are not", () => {
    for (const i of [-1, 0, 3, 4, 6, 8, 1.5]) expect(isSafeCut(h, i)).toBe(false);
  });

  test("a message following an incomplete batch is not safe", () => {
    const broken: History = [sys, user("a"), asst("", "x", "y"), tool("x"), user("b")];
    expect(isSafeCut(broken, 4)).toBe(false);
  });
});

describe("turnStarts", () => {
  test("matches isSafeCut everywhere", () => {
    expect(turnStarts(h)).toEqual([1, 2, 5, 7]);
    const broken: History = [sys, user("a"), asst("", "x", "y"), tool("x"), user("b"), user("c")];
    const expected = broken.map((_, i) => i).filter((i) => isSafeCut(broken, i));
    expect(turnStarts(broken)).toEqual(expected);
  });
});

describe("latestCut", () => {
  test("the latest turn start that keeps keepRecent messages, never inside a batch", () => {
    expect(latestCut(h, 1)).toBe(7); // turn starts 1, 2, 5, 7; 8 - 1 = 7
    expect(latestCut(h, 2)).toBe(5); // limit 6 is a tool result: back to the batch's assistant
    expect(latestCut(h, 3)).toBe(5);
    expect(latestCut(h, 4)).toBe(2);
  });

  test("none when the only candidate would leave nothing to summarise", () => {
    expect(latestCut(h, 7)).toBeUndefined(); // limit 1: the only turn start there is below 2
    expect(latestCut(h, 8)).toBeUndefined();
    expect(latestCut([sys, user("a")], 1)).toBeUndefined();
  });
});

describe("pending tool calls", () => {
  test("none when the batch is complete", () => {
    expect(pendingToolCalls(h)).toEqual([]);
    expect(answerPendingToolCalls(h, "x")).toBe(h);
  });

  test("the unanswered calls of a batch in progress, answered as errors", () => {
    const open: History = [sys, user("a"), asst("", "x", "y", "z"), tool("y")];
    expect(pendingToolCalls(open).map((c) => c.id)).toEqual(["x", "z"]);
    const closed = answerPendingToolCalls(open, "interrupted");
    expect(closed.length).toBe(6);
    expect(closed[4]).toEqual({
      role: "tool",
      tool_call_id: "x",
      content: "interrupted",
      meta: { is_error: true },
    });
    expect(validateHistory(closed)).toBeUndefined();
  });
});
