// Tool calls as a person reads them: the key argument, not JSON; hostile arguments and results inert;
// results previewed within bounds.
import { expect, test } from "bun:test";
import { keyArgument, toolCallLines, toolResultLines } from "../../src/console/tool-view.ts";
import { makeStyle } from "../../src/terminal/style.ts";

const s = makeStyle({ color: false, cursor: false });

test("the key argument per tool, the others briefly, and raw text when it is not JSON", () => {
  expect(keyArgument("bash", '{"command":"ls -la","timeout":5}')).toEqual({
    key: "ls -la",
    rest: "timeout=5",
  });
  expect(keyArgument("edit", '{"path":"a.ts","old_text":"x","new_text":"y"}')).toEqual({
    key: "a.ts",
    rest: "",
  });
  expect(keyArgument("grep", '{"pattern":"TODO","path":"src"}')).toEqual({
    key: "src",
    rest: "pattern=TODO",
  });
  expect(keyArgument("web_search", '{"query":"bun tmux"}').key).toBe("bun tmux");
  // Several edits in one call: the path, not the edits' JSON; a patch: the files it touches.
  expect(
    keyArgument("edit", JSON.stringify({ path: "b.ts", edits: [{ old_text: "x", new_text: "y" }] })),
  ).toEqual({
    key: "b.ts",
    rest: "",
  });
  const patch =
    "*** Begin Patch\n*** Add File: n.ts\n+x\n*** Update File: o.ts\n@@\n-a\n+b\n*** Delete File: g.ts\n*** End Patch";
  expect(keyArgument("apply_patch", JSON.stringify({ input: patch }))).toEqual({
    key: "n.ts, o.ts, g.ts",
    rest: "",
  });
  expect(keyArgument("odd", "not json\u001b[2J").key).toBe("not json\\e[2J");
});

test("a call is one line cut to the width; a multi-line command is shown whole (bounded)", () => {
  const one = toolCallLines("read", '{"path":"src/very/long/path/to/a/file.ts"}', s, 30);
  expect(one).toEqual(["⏺ read src/very/long/path/to/…"]);
  const multi = toolCallLines("bash", JSON.stringify({ command: "echo one\nrm -rf x\u001b[1A" }), s, 60);
  expect(multi[0]).toBe("⏺ bash echo one … +1 line");
  expect(multi[1]).toBe("  │ rm -rf x\\e[1A");
});

test("results: bash exit code and duration, a bounded preview, errors marked", () => {
  const out = Array.from({ length: 50 }, (_, i) => `row ${i}`).join("\n");
  const base = { type: "tool_result" as const, id: "1", duration_ms: 1234 };
  const bash = toolResultLines(
    { ...base, name: "bash", is_error: false, exit_code: 0, content: `${out}\n[exit code 0]` },
    undefined,
    s,
    40,
  );
  expect(bash[0]).toBe("  ⎿ exit 0 · 1.2s");
  expect(bash).toHaveLength(6);
  expect(bash.at(-1)).toBe("    … +46 lines");
  const failed = toolResultLines(
    { ...base, name: "bash", is_error: true, exit_code: 2, content: "no such file\u001b[2J\n[exit code 2]" },
    undefined,
    s,
    40,
  );
  expect(failed[0]).toBe("  ⎿ exit 2 · 1.2s");
  expect(failed[1]).toBe("    no such file\\e[2J");
  const err = toolResultLines(
    { ...base, name: "read", is_error: true, content: "x.txt: not found" },
    undefined,
    s,
    40,
  );
  expect(err[0]).toContain("✗");
  expect(err[1]).toBe("    x.txt: not found");
});
