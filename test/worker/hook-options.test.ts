// What a module said at hello decides which requests the core leaves out: idle, the tools it wants, and
// for files_changed the file extensions it wants (a change of any other file costs no round trip).
import { describe, expect, test } from "bun:test";
import { compileHookOptions, skipsHook } from "../../src/worker/hook-options.ts";

describe("hook options", () => {
  const o = compileHookOptions({
    files_changed: { tools: ["write", "edit", "read"], extensions: [".ts", ".PY"] },
    post_tool_use: { tools: ["bash"] },
    budget: { idle: true },
  });

  test("files_changed is left out when no file it names has a wanted extension (any case)", () => {
    expect(skipsHook(o, "files_changed", { tool_name: "edit", changed: ["/w/README.md"] })).toBe(true);
    expect(skipsHook(o, "files_changed", { tool_name: "read", changed: [], touched: ["/w/Makefile"] })).toBe(
      true,
    );
    expect(skipsHook(o, "files_changed", { tool_name: "edit", changed: ["/w/a.TS"] })).toBe(false);
    expect(skipsHook(o, "files_changed", { tool_name: "read", changed: [], touched: ["/w/x.py"] })).toBe(
      false,
    );
    expect(skipsHook(o, "files_changed", { tool_name: "write", changed: ["/w/a.md", "/w/b.ts"] })).toBe(
      false,
    );
  });

  test("without files (a status query, a probe by tool name) the extensions do not apply", () => {
    expect(skipsHook(o, "files_changed", { changed: [], status: true })).toBe(false);
    expect(skipsHook(o, "files_changed", { tool_name: "edit" })).toBe(false);
    expect(skipsHook(o, "files_changed", { tool_name: "bash", changed: ["/w/a.ts"] })).toBe(true);
  });

  test("tools and idle as before; no extensions means every file", () => {
    expect(skipsHook(o, "post_tool_use", { tool_name: "bash" })).toBe(false);
    expect(skipsHook(o, "post_tool_use", { tool_name: "read" })).toBe(true);
    expect(skipsHook(o, "budget", {})).toBe(true);
    const all = compileHookOptions({ files_changed: { tools: ["edit"] } });
    expect(skipsHook(all, "files_changed", { tool_name: "edit", changed: ["/w/README.md"] })).toBe(false);
  });
});
