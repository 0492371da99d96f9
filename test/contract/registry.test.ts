// beforeRequestWanted: the core skips before_request only where no module declaring it would act.
import { expect, test } from "bun:test";
import { beforeRequestWanted } from "../../src/contract/registry.ts";

test("the built-in cache is asked only for the wire formats it acts on; a replacement always", () => {
  const builtin = [{ module: "cache" as const, builtin: true }];
  expect(beforeRequestWanted(builtin, "anthropic")).toBe(true);
  expect(beforeRequestWanted(builtin, "openai")).toBe(false);
  expect(beforeRequestWanted(builtin, "responses")).toBe(false);
  expect(beforeRequestWanted([{ module: "cache", builtin: false }], "openai")).toBe(true);
  expect(beforeRequestWanted([], "anthropic")).toBe(false);
});
