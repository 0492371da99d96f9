// The built-in budget answers exactly the same from a history summary (what the core sends it, since it
// declares that a summary is enough) as from the full history: every estimate, calibration and
// recommendation, for text in any script, tool calls, images, parts and private adapter state.
import { describe, expect, test } from "bun:test";
import { benchHistory } from "../../../scripts/bench/history-gen.ts";
import type { BudgetInput } from "../../../src/contract/compaction.ts";
import { summarizeHistory } from "../../../src/worker/history-summary.ts";
import { computeBudget } from "../../../workers/budget/compute.ts";
import { budgetModule } from "../../../workers/budget/index.ts";

const mixed: unknown[] = [
  {
    role: "system",
    content: [
      { type: "text", text: "sys one" },
      { type: "text", text: "sys two" },
    ],
  },
  { role: "user", content: "привет, 世界 🎉 and ascii" },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      { id: "call_1", name: "bash", arguments: '{"command":"ls -la"}' },
      { id: "call_2", name: "read", arguments: '{"path":"ä.txt"}' },
    ],
    adapter: { reasoning: [{ id: "rs_1", encrypted_content: "zzzz" }] },
  },
  { role: "tool", tool_call_id: "call_1", content: "total 0\n" },
  {
    role: "tool",
    tool_call_id: "call_2",
    content: [
      { type: "text", text: "file" },
      { type: "image", media_type: "image/png", data: "iVBORw0KGgo=" },
    ],
  },
  { role: "user", content: [{ type: "image", media_type: "image/jpeg", data: "/9j/" }] },
  { role: "assistant", content: "done" },
];

function both(input: Omit<BudgetInput, "history" | "history_summary">, history: unknown[]) {
  const full = computeBudget({ ...input, history } as BudgetInput);
  const fromSummary = computeBudget({
    ...input,
    history_summary: summarizeHistory(history).toJSON(),
  } as BudgetInput);
  return { full, fromSummary };
}

const model = { name: "m", context_window: 50_000, image_tokens: 85 };
const policy = { trigger_ratio: 0.85, rearm_ratio: 0.7 };

describe("budget from a history summary", () => {
  for (const [name, history] of [
    ["mixed scripts, parts, images, adapter state", mixed],
    ["a generated 400-message history", benchHistory(400, 40_000) as unknown[]],
  ] as const) {
    test(`${name}: identical to the full-history answer, with and without usage`, () => {
      for (const system of [undefined, "the system text as sent"]) {
        for (const usage of [
          undefined,
          { input_tokens: 900, messages: 3 },
          { input_tokens: 5000, messages: 1 },
        ]) {
          const input = { model, policy, tools: [{ name: "bash" }], state: { armed: true } } as Omit<
            BudgetInput,
            "history" | "history_summary"
          >;
          if (system !== undefined) input.system = system;
          if (usage) input.usage = usage;
          const { full, fromSummary } = both(input, history);
          expect(fromSummary).toEqual(full);
        }
      }
      // A window the history overfills: the recommendation and hysteresis follow the same figures.
      const small = { ...model, context_window: 2000 };
      const { full, fromSummary } = both({ model: small, policy, tools: [] }, history);
      expect(fromSummary).toEqual(full);
    });
  }

  test("neither a history nor a summary is an error naming both", () => {
    expect(() => computeBudget({ model, policy, tools: [] } as BudgetInput)).toThrow(
      "budget: the data holds neither a history nor a history_summary",
    );
  });

  test("through the module: a summary passing the quick check answers as the schema-parsed one; a bad one is named", async () => {
    const hook = budgetModule.hooks.budget;
    if (!hook) throw new Error("the budget module has no budget hook");
    const history = benchHistory(200, 20_000) as unknown[];
    const data = { model, policy, tools: [{ name: "bash" }], state: { armed: true } };
    const reply = await hook({ ...data, history_summary: summarizeHistory(history).toJSON() }, {} as never);
    expect(reply.budget).toEqual(computeBudget({ ...data, history } as BudgetInput));
    expect("history_summary" in reply).toBe(false);
    const bad = { ...summarizeHistory(history).toJSON(), tokens: [-1] };
    await expect(
      Promise.resolve().then(() => hook({ ...data, history_summary: bad }, {} as never)),
    ).rejects.toThrow(/^budget: invalid data: .*history_summary/);
  });
});
