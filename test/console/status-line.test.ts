// The status line: model, provider, context of the hard limit with %, session tokens, cost when the price
// is known, the title — inert and cut to the width.
import { expect, test } from "bun:test";
import { formatCost, formatTokens, StatusLine } from "../../src/console/status-line.ts";
import { resolveModel } from "../../src/provider/models.ts";
import { makeStyle } from "../../src/terminal/style.ts";

const s = makeStyle({ color: false, cursor: false });

test("all the figures, the cost as counted (each request at its own model's price)", () => {
  const line = new StatusLine(
    {
      model: "gpt-4o",
      provider: "openai",
      context: { total: 12_345, hardLimit: 100_000 },
      tokensIn: 200_000,
      tokensOut: 10_000,
      price: { input: 2.5, output: 10 },
      costUsd: 0.6,
      title: "fix the \u001b[2Jtests",
    },
    s,
  );
  expect(line.text(200)).toBe("gpt-4o · openai · ctx 12k/100k 12% · ↑200k ↓10k $0.60 · fix the \\e[2Jtests");
  expect(line.text(30)).toBe("gpt-4o · openai · ctx 12k/100…");
});

test("no price, no cost; no budget reading yet, no context figure", () => {
  expect(new StatusLine({ model: "m", provider: "p", tokensIn: 5, tokensOut: 1 }, s).text(80)).toBe(
    "m · p · ↑5 ↓1",
  );
});

test("number formats", () => {
  expect([950, 1234, 12_345, 1_234_567].map(formatTokens)).toEqual(["950", "1.2k", "12k", "1.2M"]);
  expect([0.0042, 0.12, 3.4, 12.46].map(formatCost)).toEqual(["$0.004", "$0.12", "$3.40", "$12.5"]);
});

test("the model table knows list prices for common models; config.json can set one", () => {
  expect(resolveModel("gpt-4o", {}).price).toEqual({ input: 2.5, output: 10, cache_read: 1.25 });
  expect(resolveModel("claude-sonnet-4-5", {}).price).toEqual({
    input: 3,
    output: 15,
    cache_read: 0.3,
    cache_write: 3.75,
  });
  const own = resolveModel("local-llm", {
    models: { "local-llm": { context_window: 8000, price: { input: 0, output: 0 } } },
  });
  expect(own.price).toEqual({ input: 0, output: 0 });
});
