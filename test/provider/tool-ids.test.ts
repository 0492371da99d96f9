// Every tool call in a reply gets a usable, unique id — whatever the server sent.
import { describe, expect, test } from "bun:test";
import type { History } from "../../src/contract/history.ts";
import { ToolIdAllocator, wireToolId } from "../../src/lib/tool-ids.ts";
import { collect, FORMATS, mock, provider, request } from "./helpers.ts";

describe("ToolIdAllocator", () => {
  test("keeps good ids, invents missing ones, suffixes duplicates", () => {
    const ids = new ToolIdAllocator([
      { role: "assistant", content: "", tool_calls: [{ id: "call_0", name: "x", arguments: "{}" }] },
    ]);
    expect(ids.claim("abc")).toBe("abc");
    expect(ids.claim("abc")).toBe("abc_2");
    expect(ids.claim("abc")).toBe("abc_3");
    expect(ids.claim("call_0")).toBe("call_0_2"); // already used earlier in the history
    const made = [ids.claim(undefined), ids.claim(""), ids.claim("  "), ids.claim(null)];
    expect(new Set(made).size).toBe(4);
    for (const id of made) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  test("wire ids are deterministic and within each format's rules", () => {
    const long = `toolu_${"a".repeat(60)}`;
    expect(wireToolId(long, "openai")).toBe(wireToolId(long, "openai"));
    expect(wireToolId(long, "openai").length).toBeLessThanOrEqual(40);
    expect(wireToolId("call_ok-1", "openai")).toBe("call_ok-1");
    expect(wireToolId("a.b", "anthropic")).not.toBe(wireToolId("a_b", "anthropic")); // no collisions by mapping
    expect(wireToolId("a.b", "anthropic")).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

for (const format of FORMATS) {
  describe(`${format}: id repair`, () => {
    test("calls without ids get generated unique ids, in events and message alike", async () => {
      const server = await mock([
        {
          tool_calls: [
            { name: "read", arguments: { path: "a" }, id: "" },
            { name: "read", arguments: { path: "b" }, id: "" },
          ],
        },
      ]);
      const { res, events } = await collect(provider(format, server), request(format));
      const ids = (res.message.tool_calls ?? []).map((c) => c.id);
      expect(ids).toHaveLength(2);
      expect(ids[0]).not.toBe(ids[1]);
      for (const id of ids) expect(id.length).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === "tool_call").map((e) => e.id)).toEqual(ids);
      expect(res.message.tool_calls?.map((c) => JSON.parse(c.arguments).path)).toEqual(["a", "b"]);
    });

    test("duplicate ids within a reply, or reused from the history, are made unique", async () => {
      const history: History = [
        { role: "system", content: "s" },
        { role: "user", content: "u" },
        { role: "assistant", content: "", tool_calls: [{ id: "call_0", name: "read", arguments: "{}" }] },
        { role: "tool", tool_call_id: "call_0", content: "r" },
      ];
      const server = await mock([
        {
          tool_calls: [
            { name: "read", arguments: {}, id: "call_0" },
            { name: "bash", arguments: {}, id: "dup" },
            { name: "grep", arguments: {}, id: "dup" },
          ],
        },
      ]);
      const { res } = await collect(provider(format, server), request(format, { messages: history }));
      const ids = (res.message.tool_calls ?? []).map((c) => c.id);
      expect(new Set([...ids, "call_0"]).size).toBe(4);
      expect(ids).toEqual(["call_0_2", "dup", "dup_2"]);
    });
  });
}
