// The line diff behind edit/write displays: minimal changes, correct line numbers, bounded hunks.
import { expect, test } from "bun:test";
import { diffFiles } from "../../src/tools/diff.ts";

const lines = (n: number, f = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join("\n");

test("one changed line in a large file: one hunk, 3 lines of context, real line numbers", () => {
  const before = `${lines(1000)}\n`;
  const after = before.replace("line 500\n", "LINE 500\n");
  const d = diffFiles(before, after);
  expect(d.added).toBe(1);
  expect(d.removed).toBe(1);
  expect(d.hunks).toHaveLength(1);
  const h = d.hunks[0] ?? [];
  expect(h.map((l) => `${l.op}${l.old ?? ""}/${l.new ?? ""} ${l.text}`)).toEqual([
    " 497/497 line 497",
    " 498/498 line 498",
    " 499/499 line 499",
    "-500/ line 500",
    "+/500 LINE 500",
    " 501/501 line 501",
    " 502/502 line 502",
    " 503/503 line 503",
  ]);
});

test("insertions and deletions shift the numbers of what follows; separate changes make separate hunks", () => {
  const before = lines(40);
  const after = lines(40).replace("line 5\n", "line 5\ninserted\n").replace("line 30\n", "");
  const d = diffFiles(before, after);
  expect(d.added).toBe(1);
  expect(d.removed).toBe(1);
  expect(d.hunks).toHaveLength(2);
  expect(d.hunks[0]?.find((l) => l.op === "+")).toEqual({ op: "+", text: "inserted", new: 6 });
  expect(d.hunks[1]?.find((l) => l.op === "-")).toEqual({ op: "-", text: "line 30", old: 30 });
  const after31 = d.hunks[1]?.find((l) => l.text === "line 31");
  expect(after31).toMatchObject({ old: 31, new: 31 });
});

test("a new file is all additions; a large rewrite is bounded and says how much it left out", () => {
  const created = diffFiles("", "a\nb\n");
  expect(created).toMatchObject({ added: 2, removed: 0, omitted: 0 });
  const big = diffFiles(
    lines(500),
    lines(500, (i) => `other ${i}`),
    { maxLines: 50 },
  );
  expect(big.added).toBe(500);
  expect(big.removed).toBe(500);
  expect(big.hunks.flat()).toHaveLength(50);
  expect(big.omitted).toBe(950);
});

test("the edit script is minimal (Myers): an interleaved change keeps every common line", () => {
  const d = diffFiles("a\nb\nc\nd\ne\n", "a\nx\nc\ny\ne\n");
  expect(d.added).toBe(2);
  expect(d.removed).toBe(2);
  const kept = d.hunks
    .flat()
    .filter((l) => l.op === " ")
    .map((l) => l.text);
  expect(kept).toEqual(["a", "c", "e"]);
});
