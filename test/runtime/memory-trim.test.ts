// MemoryTrim collects only every N calls and only once RSS has grown past the threshold since the last time.
import { expect, test } from "bun:test";
import { MemoryTrim } from "../../src/runtime/memory-trim.ts";

test("collects every `every` calls once RSS grew by `growth`, never below it", () => {
  const always = new MemoryTrim(0, 3);
  expect([always.maybeCollect(), always.maybeCollect(), always.maybeCollect()]).toEqual([false, false, true]);
  const never = new MemoryTrim(1024 * 1024 * 1024 * 1024, 1);
  // Allocate and drop some memory: still far below a terabyte of growth.
  let junk: string[] | undefined = Array.from({ length: 1000 }, (_, i) => `${i}`.repeat(1000));
  expect(junk.length).toBe(1000);
  junk = undefined;
  expect([never.maybeCollect(), never.maybeCollect()]).toEqual([false, false]);
});
