// The hand check of a history summary must agree with the HistorySummary schema: whatever it accepts, the
// schema accepts; what it rejects goes to the schema (so a wrong rejection only costs time, a wrong
// acceptance would let bad data through).
import { describe, expect, test } from "bun:test";
import { HistorySummary } from "../../src/contract/protocol.ts";
import { isHistorySummary } from "../../src/lib/summary-check.ts";

const valid = {
  count: 3,
  roles: ["system", "user", "assistant"],
  tokens: [12.5, 3, 0],
  images: [0, 0, 1],
  estimator: { id: "chars-v1", version: 2 },
  last: { role: "assistant", content: "hi" },
};

const variants: [string, unknown][] = [
  ["valid", valid],
  ["no last", { ...valid, last: undefined }],
  ["string version", { ...valid, estimator: { id: "x", version: "1.0" } }],
  ["empty", { ...valid, count: 0, roles: [], tokens: [], images: [] }],
  ["not an object", [valid]],
  ["null", null],
  ["fractional count", { ...valid, count: 1.5 }],
  ["negative count", { ...valid, count: -1 }],
  ["role not a string", { ...valid, roles: ["user", 3] }],
  ["negative tokens", { ...valid, tokens: [1, -2, 0] }],
  ["tokens not numbers", { ...valid, tokens: ["1"] }],
  ["NaN tokens", { ...valid, tokens: [Number.NaN] }],
  ["fractional images", { ...valid, images: [0.5] }],
  ["roles missing", { ...valid, roles: undefined }],
  ["estimator without id", { ...valid, estimator: { version: 1 } }],
  ["estimator version boolean", { ...valid, estimator: { id: "x", version: true } }],
  ["last without role", { ...valid, last: { content: "x" } }],
  ["last not an object", { ...valid, last: "assistant" }],
];

describe("isHistorySummary agrees with the HistorySummary schema", () => {
  test.each(variants)("%s", (_name, v) => {
    const schema = HistorySummary.safeParse(v).success;
    const quick = isHistorySummary(v);
    // Never more permissive than the schema; and for these plain cases exactly as strict.
    if (quick) expect(schema).toBe(true);
    expect(quick).toBe(schema);
  });
});
