import { describe, expect, test } from "bun:test";
import type { HookRequest } from "../../../src/contract/hooks.ts";
import { cacheBreakpoints } from "../../../workers/cache/breakpoints.ts";
import { cacheModule } from "../../../workers/cache/index.ts";
import type { WorkerContext } from "../../../workers/sdk/module.ts";

const ctx: WorkerContext = {
  workspace: "/w",
  event: "before_request",
  module: "cache",
  cwd: "/c",
  log: () => {},
};
const run = (data: HookRequest<"before_request">) => {
  const hook = cacheModule.hooks.before_request;
  if (!hook) throw new Error("cache declares before_request");
  return hook(data, ctx);
};
const msgs = (...roles: string[]) => roles.map((role, i) => ({ role, content: `m${i}` }));

describe("cacheBreakpoints", () => {
  test("system message plus the ends of the last two user turns", () => {
    expect(cacheBreakpoints(["system", "user", "assistant", "user", "assistant", "user"])).toEqual([0, 3, 5]);
  });

  test("a tool batch and the user text after it are one turn, marked at its end", () => {
    // 0 system, 1 user, 2 assistant(tool calls), 3 tool, 4 tool, 5 assistant, 6 user
    expect(cacheBreakpoints(["system", "user", "assistant", "tool", "tool", "assistant", "user"])).toEqual([
      0, 4, 6,
    ]);
    expect(cacheBreakpoints(["system", "user", "assistant", "tool", "user"])).toEqual([0, 1, 4]);
  });

  test("a history ending with the assistant still marks the last user turns", () => {
    expect(cacheBreakpoints(["system", "user", "assistant"])).toEqual([0, 1]);
  });

  test("short and system-less histories", () => {
    expect(cacheBreakpoints([])).toEqual([]);
    expect(cacheBreakpoints(["system"])).toEqual([0]);
    expect(cacheBreakpoints(["user", "assistant", "user"])).toEqual([2]);
  });
});

describe("cache module", () => {
  test("declares exactly before_request and no tools", () => {
    expect(Object.keys(cacheModule.hooks)).toEqual(["before_request"]);
    expect(cacheModule.tools ?? []).toEqual([]);
  });

  test("anthropic: adds cache_breakpoints, keeps every other field and other hints", async () => {
    const data = {
      provider: "anthropic",
      model: "claude-x",
      messages: msgs("system", "user", "assistant", "user"),
      hints: { other: { keep: true } },
      extra: [1, { two: 2 }],
    };
    const before = structuredClone(data);
    const out = await run(data);
    expect(out).toEqual({ ...before, hints: { other: { keep: true }, cache_breakpoints: [0, 1, 3] } });
    expect(data).toEqual(before);
  });

  test("providers that cache automatically get nothing added", async () => {
    for (const provider of ["openai", "responses", "some-future-wire"]) {
      const data = { provider, messages: msgs("system", "user") };
      expect(await run(data)).toEqual({ provider, messages: msgs("system", "user") });
    }
  });

  test("malformed data is an error naming the field", () => {
    expect(() => run({ provider: "anthropic", messages: "nope" } as never)).toThrow(
      /before_request: invalid data: field messages/,
    );
    expect(() => run({ messages: [] } as never)).toThrow(/field provider/);
  });
});
