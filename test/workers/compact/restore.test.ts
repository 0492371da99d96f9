// The task survives compaction: which of the user's own messages the built-in module restores after the
// summary, within which bounds, and where they go in the candidate.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/contract/history.ts";
import {
  collectUserMessages,
  RESTORE_LATEST_MAX_BYTES,
  RESTORE_MAX_BYTES,
  RESTORED_LABEL,
  restoredMessage,
  restoreUserMessages,
  userWords,
} from "../../../workers/compact/restore.ts";

const user = (content: string, meta?: Record<string, unknown>): Message => ({
  role: "user",
  content,
  ...(meta ? { meta } : {}),
});

describe("which messages are the user's own words", () => {
  test("not the summary, not the core's continuation prompt; a restored message counts by its text", () => {
    expect(userWords(user("fix the bug"))).toBe("fix the bug");
    expect(userWords(user("steered", { steered: true }))).toBe("steered");
    expect(userWords(user("[Context summary] …", { summary: true }))).toBeUndefined();
    expect(userWords(user("[continue]", { continuation: true }))).toBeUndefined();
    expect(userWords({ role: "assistant", content: "done" })).toBeUndefined();
    expect(userWords(restoredMessage("the original task"))).toBe("the original task");
  });
});

describe("collectUserMessages", () => {
  test("the first request and the latest always; the rest newest first within the bound; oldest first out", () => {
    const big = (c: string) => c.repeat(3000);
    const msgs = [
      user("TASK: port the parser"),
      user(big("a")),
      user(big("b")),
      user(big("c")),
      user("latest: now the tests"),
    ];
    const got = collectUserMessages(msgs);
    expect(got[0]).toBe("TASK: port the parser");
    expect(got.at(-1)).toBe("latest: now the tests");
    // 8 KiB of room: two of the three 3 000-byte messages fit, the newest ones.
    expect(got).toEqual(["TASK: port the parser", big("b"), big("c"), "latest: now the tests"]);
    const bytes = got.slice(0, -1).reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(bytes).toBeLessThanOrEqual(RESTORE_MAX_BYTES);
  });

  test("a latest request over its own bound stays in the summary only; restored ones are collected again", () => {
    const huge = "x".repeat(RESTORE_LATEST_MAX_BYTES + 1);
    expect(collectUserMessages([user("task"), user(huge)])).toEqual(["task"]);
    // After an earlier compaction the restored message sits after the summary: it is the first request still.
    const again = [user("[Context summary]", { summary: true }), restoredMessage("task"), user("next step")];
    expect(collectUserMessages(again)).toEqual(["task", "next step"]);
  });
});

describe("restoreUserMessages", () => {
  const system: Message = { role: "system", content: "sys" };
  const summary = user("[Context summary] …", { summary: true, untrusted: true });

  test("between the summary and the suffix, as user messages in the user's words; none repeated from the suffix", () => {
    const suffix: Message[] = [
      { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { role: "tool", tool_call_id: "c1", content: "x" },
    ];
    const out = restoreUserMessages([system, summary, ...suffix], ["port the parser", "now the tests"]);
    expect(out.slice(0, 2)).toEqual([system, summary]);
    expect(out.slice(-2)).toEqual(suffix);
    expect(out.slice(2, 4)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: RESTORED_LABEL },
          { type: "text", text: "port the parser" },
        ],
        meta: { restored: true },
      },
      {
        role: "user",
        content: [
          { type: "text", text: RESTORED_LABEL },
          { type: "text", text: "now the tests" },
        ],
        meta: { restored: true },
      },
    ]);
    const visible = restoreUserMessages(
      [system, summary, user("now the tests")],
      ["port the parser", "now the tests"],
    );
    expect(visible.length).toBe(4);
    expect(visible[2]?.meta).toEqual({ restored: true });
  });

  test("a candidate without a summary message (the prune route) is left alone", () => {
    const c = [system, user("a"), { role: "assistant", content: "b" } as Message];
    expect(restoreUserMessages(c, ["task"])).toBe(c);
  });
});
