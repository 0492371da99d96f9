// The built-in budget module: estimates, calibration with real usage, image honesty, the 85%/70%
// high-watermark hysteresis, and (through a real worker process) preservation of every input field.
import { afterAll, describe, expect, test } from "bun:test";
import type { BudgetInput, BudgetResult } from "../../../src/contract/compaction.ts";
import { ESTIMATOR, MESSAGE_OVERHEAD, textTokens } from "../../../src/lib/estimator.ts";
import { WorkerHost } from "../../../src/worker/host.ts";
import { computeBudget, defaultReserve } from "../../../workers/budget/compute.ts";
import { manifestOf, TempDirs } from "../../worker/helpers.ts";

const SYSTEM = { role: "system", content: "s".repeat(400) }; // 100 tokens + overhead
const policy = { trigger_ratio: 0.85, rearm_ratio: 0.7, reserve_tokens: 1000 };
const model = { name: "m", context_window: 11_000 }; // hard limit 10 000

/** history whose messages estimate to exactly `tokens` (+ overhead per message) */
function historyOf(...tokens: number[]): unknown[] {
  return [SYSTEM, ...tokens.map((t) => ({ role: "user", content: "a".repeat(t * 4) }))];
}

function budget(input: Partial<BudgetInput> & { history: unknown[] }): BudgetResult {
  return computeBudget({ model, policy, tools: [], ...input } as BudgetInput);
}

describe("estimates", () => {
  test("ASCII text counts a quarter token per character, plus per-message overhead", () => {
    const b = budget({ history: historyOf(1000, 500) });
    expect(b.estimates.system).toBe(100 + MESSAGE_OVERHEAD);
    expect(b.estimates.messages).toBe(1500 + 2 * MESSAGE_OVERHEAD);
    expect(b.estimates.total).toBe(
      (b.estimates.system ?? -1) +
        (b.estimates.tools ?? -1) +
        (b.estimates.messages ?? -1) +
        (b.estimates.images ?? -1),
    );
    expect(b.estimator).toEqual({ ...ESTIMATOR });
    expect(b.calibrated).toBe(false);
  });

  test("scripts outside ASCII count denser than English text", () => {
    expect(textTokens("abcd")).toBe(1);
    expect(textTokens("привет")).toBe(3); // 2-byte script: two characters per token
    expect(textTokens("日本語のテキスト")).toBe(8); // CJK: about one token per character
    expect(textTokens("😀")).toBe(1); // a surrogate pair is one token
  });

  test("tool declarations, tool calls and private adapter state cost context; meta does not", () => {
    const base = budget({ history: historyOf(10) }).estimates.total;
    const tools = [{ name: "read", description: "x".repeat(400), input_schema: {} }];
    expect(budget({ history: historyOf(10), tools }).estimates.tools).toBeGreaterThan(100);
    const withMeta = [...historyOf(10)];
    withMeta[1] = { ...(withMeta[1] as object), meta: { note: "n".repeat(4000) } };
    expect(budget({ history: withMeta }).estimates.total).toBe(base);
    withMeta[1] = { ...(withMeta[1] as object), adapter: { reasoning: "r".repeat(4000) } };
    expect(budget({ history: withMeta }).estimates.total).toBeGreaterThan(base + 900);
  });

  test("image bytes are never counted as text; unknown image cost is reported, not guessed", () => {
    const image = { type: "image", media_type: "image/png", data: "A".repeat(400_000) };
    const history = [SYSTEM, { role: "user", content: [{ type: "text", text: "look" }, image] }];
    const unknown = budget({ history });
    expect(unknown.images_unknown).toBe(true);
    expect(unknown.estimates.images).toBe(0);
    expect(unknown.estimates.messages).toBeLessThan(10);
    const known = computeBudget({ model: { ...model, image_tokens: 1500 }, policy, history } as BudgetInput);
    expect(known.images_unknown).toBeUndefined();
    expect(known.estimates.images).toBe(1500);
  });

  test("the same content always gives the same (comparable) estimate", () => {
    const h = historyOf(123, 456, 789);
    expect(budget({ history: h }).estimates).toEqual(budget({ history: structuredClone(h) }).estimates);
  });
});

describe("calibration with real usage", () => {
  test("the covered prefix counts as billed and the rest is scaled by the observed ratio", () => {
    const h = historyOf(1000, 1000, 1000);
    const raw = budget({ history: h });
    const prefix = budget({ history: h.slice(0, 3) }).estimates.total; // system + two messages
    const b = budget({ history: h, usage: { input_tokens: prefix * 2, messages: 3 } });
    expect(b.calibrated).toBe(true);
    expect(b.calibration_factor).toBeCloseTo(2, 5);
    expect(b.effective_total).toBe(prefix * 2 + (raw.estimates.total - prefix) * 2);
    // Raw estimates stay comparable across calls whatever the calibration.
    expect(b.estimates).toEqual(raw.estimates);
    expect(b.ratio).toBeCloseTo((b.effective_total ?? -1) / b.hard_limit, 9);
  });

  test("implausible or stale usage is ignored", () => {
    const h = historyOf(1000, 1000);
    expect(budget({ history: h, usage: { input_tokens: 10, messages: 3 } }).calibrated).toBe(false);
    expect(budget({ history: h, usage: { input_tokens: 5000, messages: 9 } }).calibrated).toBe(false);
    expect(budget({ history: h, usage: { input_tokens: 0, messages: 2 } }).calibrated).toBe(false);
  });
});

describe("recommendation and hysteresis", () => {
  // hard limit 10 000; system ≈ 104 tokens, one message ≈ tokens + 4
  const at = (ratio: number) => historyOf(Math.round(ratio * 10_000) - 108);

  test("recommends compaction at 85% once, then re-arms only below 70%", () => {
    let armed = true;
    const step = (ratio: number) => {
      const b = budget({ history: at(ratio), state: { armed } });
      armed = b.armed === true;
      return b.recommendation;
    };
    expect(step(0.84)).toBe("none");
    expect(step(0.86)).toBe("compact");
    expect(armed).toBe(false);
    expect(step(0.9)).toBe("none"); // disarmed: no repeat while above the re-arm mark
    expect(step(0.75)).toBe("none");
    expect(armed).toBe(false);
    expect(step(0.69)).toBe("none");
    expect(armed).toBe(true);
    expect(step(0.86)).toBe("compact");
  });

  test("over the hard limit is always reported, armed or not", () => {
    expect(budget({ history: at(1.01), state: { armed: false } }).recommendation).toBe("over");
    expect(budget({ history: at(1.01), state: { armed: true } }).recommendation).toBe("over");
  });

  test("default reserve follows the model's output cap, bounded; an impossible reserve is an error", () => {
    expect(defaultReserve({ name: "m", context_window: 200_000, max_output_tokens: 64_000 })).toBe(32_000);
    expect(defaultReserve({ name: "m", context_window: 128_000, max_output_tokens: 16_384 })).toBe(16_384);
    expect(defaultReserve({ name: "m", context_window: 8_000 })).toBe(2_000);
    expect(() =>
      computeBudget({
        model,
        policy: { ...policy, reserve_tokens: 11_000 },
        history: historyOf(1),
      } as BudgetInput),
    ).toThrow(/reserve_tokens 11000 leaves no room/);
  });
});

describe("through a real worker process", () => {
  const dirs = new TempDirs();
  const configDir = dirs.make();
  const host = new WorkerHost(manifestOf(["budget"], configDir), { workspace: dirs.make(), configDir });
  afterAll(async () => {
    await host.close();
    dirs.cleanup();
  });

  test("returns every field it received, plus budget", async () => {
    const input = {
      model: { ...model, extra_model_field: "kept" },
      policy,
      system: "s".repeat(400),
      tools: [],
      history: historyOf(9000),
      state: { armed: true },
      unrelated: { nested: [1, 2, 3] },
    };
    const out = await host.runHook("budget", input);
    const { budget: b, ...rest } = out;
    expect(rest).toEqual(input);
    expect((b as BudgetResult).recommendation).toBe("compact");
    expect((b as BudgetResult).hard_limit).toBe(10_000);
  });

  test("invalid input is an error naming the field", async () => {
    await expect(host.runHook("budget", { model: { name: "m" }, policy, history: [] })).rejects.toThrow(
      /model\.context_window/,
    );
  });
});
