// Column arithmetic for styled text: widths ignore our styling, wide characters count two, wrapping
// keeps every character and carries the styling onto continuation lines.
import { expect, test } from "bun:test";
import { padEnd, truncate, visibleWidth, wrap } from "../../src/terminal/width.ts";

const RED = "\u001b[31m";
const OFF = "\u001b[39m";
const strip = (s: string) => s.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");

test("visible width: styling is zero, CJK and emoji are two, combining marks zero", () => {
  expect(visibleWidth(`${RED}red${OFF}`)).toBe(3);
  expect(visibleWidth("日本")).toBe(4);
  expect(visibleWidth("👍")).toBe(2);
  expect(visibleWidth("e\u0301")).toBe(1);
});

test("wrap breaks at spaces, splits words longer than the width, and drops nothing", () => {
  expect(wrap("alpha beta gamma", 11)).toEqual(["alpha beta", "gamma"]);
  expect(wrap("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  const text = "the quick brown fox jumps over the lazy dog again and again";
  for (const w of [5, 8, 13, 20]) {
    const lines = wrap(text, w);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(w);
    expect(lines.join(" ").replace(/\s+/g, " ")).toBe(text);
  }
});

test("a hanging indent starts continuation lines further in and keeps them within the width", () => {
  expect(wrap("  no model chosen: pass -m NAME", 18, 4)).toEqual(["  no model chosen:", "    pass -m NAME"]);
  // The word moved off the first line is wider than a continuation line: it is split, never overflows.
  const lines = wrap("a bbbbbbbbbbbbbbbbbbb c", 20, 4);
  expect(lines).toEqual(["a", "    bbbbbbbbbbbbbbbb", "    bbb c"]);
  for (const w of [6, 9, 14, 21])
    for (const l of wrap(`${RED}the quick brown fox jumps over the lazy dog${OFF}`, w, 3))
      expect(visibleWidth(l)).toBeLessThanOrEqual(w);
});

test("wrapped styled text is styled on every line and closed at each line end", () => {
  const lines = wrap(`${RED}one two three four${OFF} plain`, 9);
  expect(lines.map(strip)).toEqual(["one two", "three", "four", "plain"]);
  expect(lines[1]?.startsWith(RED)).toBe(true);
  expect(lines[2]?.startsWith(RED)).toBe(true);
  expect(lines[0]?.endsWith("\u001b[0m")).toBe(true);
});

test("truncate cuts to the width with an ellipsis and closes open styling", () => {
  expect(truncate("hello world", 8)).toBe("hello w…");
  expect(truncate("short", 8)).toBe("short");
  const cut = truncate(`${RED}hello world${OFF}`, 6);
  expect(strip(cut)).toBe("hello…");
  expect(cut).toContain("\u001b[0m");
  expect(padEnd("日本", 6)).toBe("日本  ");
});
