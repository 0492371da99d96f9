import { describe, expect, test } from "bun:test";
import { hookContextMessage, stopHookMessage } from "../../src/agent/user-hook-messages.ts";
import { replay } from "../../src/console/replay.ts";
import type { History } from "../../src/contract/history.ts";

const ts = "2026-12-01T00:00:00.000Z";

describe("replay: what hooks added to the conversation", () => {
  test("hook context and a Stop hook's reason are not replayed as the user's prompts", () => {
    const h: History = [
      { role: "system", content: "sys" },
      hookContextMessage("SessionStart", "branch: main", ts),
      { role: "user", content: "fix the bug", meta: { ts } },
      hookContextMessage("UserPromptSubmit", "ticket 42", ts),
      { role: "assistant", content: "done" },
      stopHookMessage("tests still fail", false, ts),
      { role: "assistant", content: "fixed the tests too" },
    ];
    const users = replay(h).items.filter((i) => i.kind === "user");
    expect(users).toEqual([{ kind: "user", text: "fix the bug" }]);
    const texts = replay(h)
      .items.map((i) => ("text" in i ? i.text : i.kind === "event" && "text" in i.event ? i.event.text : ""))
      .join("\n");
    expect(texts).not.toContain("branch: main");
    expect(texts).not.toContain("ticket 42");
    expect(texts).toContain("fixed the tests too");
  });
});
