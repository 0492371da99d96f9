// Hook replies are compared by value: every field of the core's data that the hook may not change must
// come back deep-equal (a fresh copy is fine, a changed nested value is not), for every hook event.
import { describe, expect, test } from "bun:test";
import { HOOK_EVENTS } from "../../src/contract/protocol.ts";
import { keptFieldProblem, MAY_CHANGE, sameValue } from "../../src/worker/kept-fields.ts";

const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x));

describe("keptFieldProblem", () => {
  test("every hook event has its list of changeable fields (checkpoint's reply is not used)", () => {
    expect(Object.keys(MAY_CHANGE).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(MAY_CHANGE.checkpoint).toBeUndefined();
  });

  for (const event of HOOK_EVENTS) {
    const mayChange = MAY_CHANGE[event];
    if (mayChange === undefined) continue;
    const core: Record<string, unknown> = { other: { list: [1, { deep: "x" }] }, workspace: "/w" };
    for (const f of mayChange) core[f] = null;

    test(`${event}: its own fields change, a copy of the rest is fine, a deep change of the rest is named`, () => {
      const changed: Record<string, unknown> = copy(core);
      for (const f of mayChange) changed[f] = { filled: f };
      expect(keptFieldProblem(event, core, core, changed)).toBeUndefined();
      const deep = copy(core);
      (deep.other as { list: [number, { deep: string }] }).list[1].deep = "y";
      expect(keptFieldProblem(event, core, core, deep)).toBe(
        `the reply changed the field "other" it was sent; on "${event}" a module may change only ${mayChange.map((f) => `"${f}"`).join(", ")} and must return every other field unchanged`,
      );
      const lost = copy(core);
      delete lost.workspace;
      expect(keptFieldProblem(event, core, core, lost)).toMatch(/^the reply lost the field "workspace"/);
    });
  }

  test("a float read back a unit in the last place off is the same value; a real change is not", () => {
    const core = { budget: null, model: { ratio: 0.9012738853503185, window: 200000 } };
    const ulp = { budget: { x: 1 }, model: { ratio: 0.9012738853503184, window: 200000 } };
    expect(keptFieldProblem("budget", core, core, ulp)).toBeUndefined();
    const changed = { budget: { x: 1 }, model: { ratio: 0.9012738853, window: 200000 } };
    expect(keptFieldProblem("budget", core, core, changed)).toMatch(/changed the field "model"/);
    expect(sameValue(1, 1.0000000000000002)).toBe(true);
    expect(sameValue(0, 1e-300)).toBe(false);
    expect(sameValue("1", 1)).toBe(false);
  });

  test("a field an earlier module added is the pipeline's own: a later one may change it", () => {
    const core = { system: "S", model: "m" };
    const sent = { ...core, trace: ["a"] };
    expect(keptFieldProblem("system_prompt", core, sent, { ...sent, trace: ["a", "b"] })).toBeUndefined();
    expect(keptFieldProblem("system_prompt", core, sent, { ...sent, model: "n" })).toMatch(
      /changed the field "model"/,
    );
  });

  test("the history summary sent in place of the history need not come back", () => {
    const core = { hints: {}, provider: "openai", messages: [{ role: "user" }] };
    const sent = { hints: {}, provider: "openai", history_summary: { count: 1 } };
    expect(
      keptFieldProblem("before_request", core, sent, { hints: { a: 1 }, provider: "openai" }),
    ).toBeUndefined();
  });

  test("a message array that comes back holding the very objects sent passes on identity", () => {
    const messages = Array.from({ length: 1000 }, (_, i) => ({ role: "user", content: `m${i}` }));
    const core = { provider: "openai", messages };
    expect(
      keptFieldProblem("before_request", core, core, { provider: "openai", messages: [...messages] }),
    ).toBe(undefined);
    const edited = [...messages];
    edited[500] = { role: "user", content: "edited" };
    expect(keptFieldProblem("before_request", core, core, { provider: "openai", messages: edited })).toMatch(
      /changed the field "messages"/,
    );
  });
});
