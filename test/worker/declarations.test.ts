import { describe, expect, test } from "bun:test";
import { USER_HOOK_CONTRACT_EVENTS } from "../../src/contract/protocol.ts";
import { moduleToolDecls } from "../../src/contract/registry.ts";
import { jsonEqual } from "../../src/lib/json-equal.ts";
import { declarationDifference } from "../../src/worker/declarations.ts";

const hello = (module: string, hooks: string[], tools = moduleToolDecls("search")) => ({
  protocol: 1 as const,
  module,
  hooks,
  tools,
});

describe("jsonEqual", () => {
  test("ignores key order, not values or array order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    // JSON has no undefined: a key holding it is absent, as JSON.stringify would write it.
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe("declarationDifference", () => {
  test("exact declarations pass; hooks compare as a set", () => {
    expect(declarationDifference("search", hello("search", []))).toBeUndefined();
    const compact = ["after_compact", "compact_plan", "before_compact_commit", "before_compact"];
    expect(declarationDifference("compact", hello("compact", compact, []))).toBeUndefined();
  });

  test("checkpoint may be added by any module", () => {
    expect(declarationDifference("search", hello("search", ["checkpoint"]))).toBeUndefined();
  });

  test("missing and extra hooks, wrong module", () => {
    expect(declarationDifference("cache", hello("cache", ["steer"], []))).toBe(
      'missing hook(s) "before_request"; undeclared hook(s) "steer"',
    );
    expect(declarationDifference("cache", hello("budget", ["before_request"], []))).toBe(
      'it says it is module "budget"',
    );
  });

  test("tools must deep-equal the registry, optional tools allowed", () => {
    const [grep, find] = moduleToolDecls("search");
    if (!grep || !find) throw new Error("search declares grep and find");
    expect(declarationDifference("search", hello("search", [], [grep]))).toBe('missing tool(s) "find"');
    const reordered = {
      ...grep,
      input_schema: Object.fromEntries(Object.entries(grep.input_schema).reverse()),
    };
    expect(declarationDifference("search", hello("search", [], [find, reordered]))).toBeUndefined();
    const changed = {
      ...grep,
      description: "other",
      input_schema: { ...grep.input_schema, additionalProperties: true },
    };
    expect(declarationDifference("search", hello("search", [], [changed, find]))).toBe(
      'tool "grep": description differs; tool "grep": input_schema differs',
    );
    expect(declarationDifference("search", hello("search", [], [grep, find, grep]))).toBe(
      'tool "grep" declared twice',
    );
    const webSearch = { name: "web_search", description: "Search the web.", input_schema: {} };
    const webFetch = moduleToolDecls("web");
    expect(declarationDifference("web", hello("web", [], [...webFetch, webSearch]))).toBe(
      'tool "web_search": input_schema differs',
    );
    expect(declarationDifference("web", hello("web", [], webFetch))).toBeUndefined();
    expect(declarationDifference("cache", hello("cache", ["before_request"], [grep]))).toBe(
      'undeclared tool "grep"',
    );
  });
});

describe("hook_options at hello", () => {
  const hooks = [...USER_HOOK_CONTRACT_EVENTS];
  const withOptions = (hook_options: Record<string, unknown>) => ({
    ...hello("hooks", hooks, []),
    hook_options: hook_options as never,
  });
  test("may name only declared hooks; tool patterns must compile", () => {
    expect(
      declarationDifference("hooks", withOptions({ pre_tool_use: { tools: ["bash|edit"] } })),
    ).toBeUndefined();
    expect(declarationDifference("hooks", withOptions({ budget: { idle: true } }))).toContain(
      'hook_options names "budget", which it does not declare',
    );
    expect(declarationDifference("hooks", withOptions({ pre_tool_use: { tools: ["("] } }))).toContain(
      'hook_options.pre_tool_use.tools: "(" is not a regular expression',
    );
  });
  test("the task tool's description is the module's (it lists the agents); its schema is checked", () => {
    const [task] = moduleToolDecls("agents");
    if (!task) throw new Error("no task tool");
    const ok = { ...hello("agents", [], [{ ...task, description: `${task.description}\nAgents: …` }]) };
    expect(declarationDifference("agents", ok)).toBeUndefined();
    const bad = { ...hello("agents", [], [{ ...task, input_schema: { type: "object" } }]) };
    expect(declarationDifference("agents", bad)).toContain('tool "task": input_schema differs');
  });
});
