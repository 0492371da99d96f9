// The budget module's input parser checks only the summary entries that are new since the previous
// request, and gives exactly what a full zod parse gives: the same data for good input, the same error
// (with the entry's real index) for bad input, whatever the previous requests were.
import { describe, expect, test } from "bun:test";
import { BudgetInput } from "../../../src/contract/compaction.ts";
import { ESTIMATOR } from "../../../src/contract/lib/estimator.ts";
import { BudgetInputParser } from "../../../workers/budget/parse-input.ts";
import { parseHookData } from "../../../workers/sdk/hook-data.ts";

const base = {
  model: { name: "m", context_window: 100_000 },
  policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
  system: "s",
  tools: [{ name: "bash" }],
};

/** A summary of n messages, as the core sends it (extra keys included: the schema strips them). */
function request(
  n: number,
  change?: (s: { roles: unknown[]; tokens: unknown[]; images: unknown[] }) => void,
) {
  const s = {
    count: n,
    roles: Array.from({ length: n }, (_, i) => (i === 0 ? "system" : i % 2 ? "assistant" : "tool")),
    tokens: Array.from({ length: n }, (_, i) => 10 + i),
    images: Array.from({ length: n }, () => 0),
    estimator: { ...ESTIMATOR },
    last: { role: "tool", content: "x" },
    extra: "stripped",
  };
  change?.(s);
  return JSON.parse(JSON.stringify({ ...base, history_summary: s })) as Record<string, unknown>;
}

const full = (data: Record<string, unknown>) => parseHookData("budget", BudgetInput, data);
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected a rejection");
};

describe("budget input parser", () => {
  test("a growing summary parses to exactly what a full parse gives", () => {
    const p = new BudgetInputParser();
    for (const n of [1, 2, 5, 6, 6, 40, 41, 3]) {
      const data = request(n);
      expect(p.parse(data)).toEqual(full(request(n)));
    }
  });

  test("a bad entry among the new ones is reported at its index in the whole column", () => {
    const p = new BudgetInputParser();
    p.parse(request(10));
    const bad = request(12, (s) => {
      s.tokens[11] = -1;
    });
    expect(errorOf(() => p.parse(bad))).toBe(errorOf(() => full(bad)));
    expect(errorOf(() => p.parse(bad))).toContain("history_summary.tokens[11]");
  });

  test("a changed entry in the old part is checked again (a compacted or different history)", () => {
    const p = new BudgetInputParser();
    p.parse(request(10));
    const bad = request(11, (s) => {
      s.roles[3] = 7;
    });
    expect(errorOf(() => p.parse(bad))).toBe(errorOf(() => full(bad)));
    // The bad request left nothing taken as checked: the same prefix with a bad old entry still fails.
    expect(() => p.parse(bad)).toThrow();
    expect(p.parse(request(11))).toEqual(full(request(11)));
  });

  test("a history, or no summary at all, goes through the full parse", () => {
    const p = new BudgetInputParser();
    p.parse(request(5));
    const withHistory = { ...base, history: [{ role: "system", content: "s" }] };
    expect(p.parse(withHistory)).toEqual(full(withHistory));
    const neither = { ...base, history_summary: "nope" };
    expect(errorOf(() => p.parse(neither))).toBe(errorOf(() => full(neither)));
  });
});
