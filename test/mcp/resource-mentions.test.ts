// What counts as an `@SERVER:URI` mention (and what stays a path), how a read is attached and bounded,
// and which resources the `@` menu offers for what was typed.
import { describe, expect, test } from "bun:test";
import { findMentions } from "../../src/agent/mentions.ts";
import {
  attachResources,
  findResourceMentions,
  type ResourceSource,
} from "../../src/agent/resource-mentions.ts";
import { resourceRows } from "../../src/console/input/resource-completion.ts";

const source = (texts: Record<string, string>): ResourceSource => ({
  list: () => [],
  read: async (server, uri) => {
    const text = texts[`${server}:${uri}`];
    if (text === undefined) throw new Error(`no resource ${uri}`);
    return [{ uri, text }];
  },
});

describe("@SERVER:URI mentions", () => {
  test("a server and a URI with a scheme; a path with a line number is not one", () => {
    const text = "see @docs:file:///a.md, @src/a.ts:12 and @gh:repo://x/y. also me@host:a:b";
    expect(findResourceMentions(text)).toEqual([
      { server: "docs", uri: "file:///a.md" },
      { server: "gh", uri: "repo://x/y" },
    ]);
    expect(findMentions(text)).toEqual(["src/a.ts:12"]);
  });

  test("attached after the text in order, each bounded, a cut said in the block and the note", async () => {
    const big = `${"line\n".repeat(3000)}`;
    const r = await attachResources(
      "@s:t://a @s:t://b",
      source({ "s:t://a": "alpha", "s:t://b": big }),
      100_000,
      1_000,
    );
    expect(r.blocks[0]).toBe('<resource uri="s:t://a">\nalpha\n</resource>');
    expect(r.blocks[1]).toContain("[cut: only the first 1000 B are attached]");
    expect(r.notes[0]).toBe("attached @s:t://a (5 B)");
    expect(r.notes[1]).toMatch(/^attached @s:t:\/\/b \(first 1000 B of 14\.6 KiB\)$/);
  });

  test("one that cannot be read throws one line naming it; no source names the configuration", async () => {
    await expect(attachResources("@s:t://x", source({}), 10_000, 1_000)).rejects.toThrow(
      "@s:t://x: no resource t://x",
    );
    await expect(attachResources("@s:t://x", undefined, 10_000, 1_000)).rejects.toThrow(
      '@s:t://x: no MCP server "s" (none is configured: mcp.json)',
    );
  });
});

describe("the @ menu's resources", () => {
  const all = [
    { value: "docs:file:///guide.md", detail: "Guide" },
    { value: "docs:file:///api.md", detail: "API reference" },
    { value: "gh:repo://i/issues", detail: "Issues" },
  ];
  test("prefix matches first, then matches inside the value or the name", () => {
    expect(resourceRows("docs:file:///g", all).map((r) => r.value)).toEqual(["docs:file:///guide.md"]);
    expect(resourceRows("refer", all).map((r) => r.value)).toEqual(["docs:file:///api.md"]);
    expect(resourceRows("", all)).toHaveLength(3);
    expect(resourceRows("gh", all).map((r) => r.value)).toEqual(["gh:repo://i/issues"]);
  });
});
