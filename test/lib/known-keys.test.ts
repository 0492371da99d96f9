// The keys an "unknown key" message may suggest, through the wrappers the contract uses (z.lazy among
// them: the larger schemas are made on first use).
import { expect, test } from "bun:test";
import { z } from "zod";
import { knownKeys } from "../../src/lib/known-keys.ts";

const Inner = z.lazy(() => z.strictObject({ command: z.string(), timeout: z.number().optional() }));
const File = z.lazy(() =>
  z.strictObject({
    hooks: z.record(z.string(), z.array(Inner)).optional(),
    models: z.union([z.strictObject({ main: z.string() }), z.strictObject({ small: z.string() })]),
  }),
);

test("top level, through a lazy schema", () => {
  expect(knownKeys(File, []).sort()).toEqual(["hooks", "models"]);
});

test("inside records, arrays, optionals, unions and a nested lazy schema", () => {
  expect(knownKeys(File, ["hooks", "PreToolUse", 0]).sort()).toEqual(["command", "timeout"]);
  expect(knownKeys(File, ["models"]).sort()).toEqual(["main", "small"]);
});

test("a path it cannot follow gives no keys", () => {
  expect(knownKeys(File, ["nothing", "here"])).toEqual([]);
  expect(knownKeys(z.string(), [])).toEqual([]);
});
