// PrefixCache extends its state with the new elements of a growing array and rebuilds it when an element
// seen before was replaced or removed.
import { expect, test } from "bun:test";
import { PrefixCache } from "../../src/lib/prefix-cache.ts";

test("grows with the array, rebuilds when the seen prefix changed", () => {
  let added = 0;
  const cache = new PrefixCache<string[]>(
    () => [],
    (s, item) => {
      added++;
      s.push((item as { v: string }).v);
    },
  );
  const a = { v: "a" };
  const list: unknown[] = [a, { v: "b" }];
  expect(cache.of(list)).toEqual(["a", "b"]);
  list.push({ v: "c" });
  expect(cache.of(list)).toEqual(["a", "b", "c"]);
  expect(added).toBe(3); // only the new element was added
  list[1] = { v: "B" };
  expect(cache.of(list)).toEqual(["a", "B", "c"]);
  list.length = 1;
  expect(cache.of(list)).toEqual(["a"]);
  // Another array with the same objects has its own state.
  expect(cache.of([a, { v: "x" }])).toEqual(["a", "x"]);
});
