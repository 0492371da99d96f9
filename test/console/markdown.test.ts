// Markdown rendering: blocks to terminal lines, and streaming — however the text is cut into pieces, the
// committed lines equal the rendering of the whole text (nothing lost, nothing printed twice), and the
// growing block renders sanely while it is incomplete.
import { expect, test } from "bun:test";
import { Lexer } from "marked";
import { highlight } from "../../src/console/markdown/highlight.ts";
import { fitColumns, MarkdownRenderer } from "../../src/console/markdown/render.ts";
import { MarkdownStream } from "../../src/console/markdown/stream.ts";
import { makeStyle } from "../../src/terminal/style.ts";
import { visibleWidth } from "../../src/terminal/width.ts";

const plain = makeStyle({ color: false, cursor: false });
const md = new MarkdownRenderer(plain);
const render = (text: string, width = 60) => md.blocks(Lexer.lex(text, { gfm: true }), width);

const DOC = [
  "# Heading one",
  "",
  "Paragraph with **bold**, *em*, ~~gone~~, `code` and [a link](https://x.example/a) and <https://auto.example>.",
  "A second line of the same paragraph.",
  "",
  "1. first",
  "2. second",
  "   - nested bullet",
  "- [x] done task",
  "- [ ] open task",
  "",
  "> quoted",
  "> still quoted",
  "",
  "| left | right |",
  "|:-----|------:|",
  "| a | 1 |",
  "| bb | 22 |",
  "",
  "```python",
  "def f(x):",
  "    return x + 1  # comment",
  "```",
  "",
  "---",
  "",
  "Last paragraph &amp; done.",
].join("\n");

test("blocks render without markdown markers", () => {
  const out = render(DOC).join("\n");
  const flatOut = out.replace(/\s+/g, " ");
  for (const marker of ["**", "~~", "```", "|:---", "# Heading", "[a link]"])
    expect(out).not.toContain(marker);
  expect(out).toContain("Heading one");
  expect(flatOut).toContain("a link (https://x.example/a)");
  expect(out).toContain("https://auto.example");
  expect(out).not.toContain("https://auto.example (https://auto.example)");
  expect(out).toContain("1. first");
  expect(out).toContain("  • nested bullet");
  expect(out).toContain("☑ done task");
  expect(out).toContain("☐ open task");
  expect(out).toContain("│ quoted");
  expect(out).toMatch(/│ a +│ +1 │/);
  expect(out).toMatch(/│ bb +│ +22 │/);
  expect(out).toContain("│ def f(x):");
  expect(out).toContain("Last paragraph & done.");
});

test("every rendered line fits the width, tables included", () => {
  const wide = `| a | b |\n|---|---|\n| ${"word ".repeat(30)} | ${"other ".repeat(20)} |`;
  for (const width of [30, 45, 80]) {
    for (const line of render(`${DOC}\n\n${wide}`, width))
      expect(visibleWidth(line)).toBeLessThanOrEqual(width);
  }
});

test("table columns: natural widths when they fit, the widest narrowed first", () => {
  expect(fitColumns([5, 10], 20)).toEqual([5, 10]);
  expect(fitColumns([5, 40], 20)).toEqual([5, 15]);
  expect(fitColumns([30, 30], 20)).toEqual([10, 10]);
});

function streamed(text: string, cuts: number[], width = 60): { committed: string[]; liveSeen: string[][] } {
  const committed: string[] = [];
  const liveSeen: string[][] = [];
  const s = new MarkdownStream(
    md,
    (lines) => committed.push(...lines),
    () => width,
  );
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    s.push(text.slice(at, cut));
    liveSeen.push(s.render(width));
    at = cut;
  }
  s.finish();
  return { committed, liveSeen };
}

test("streamed in any pieces, the committed lines are exactly the whole text's rendering", () => {
  const whole = render(DOC);
  // one character at a time, and pseudo-random cuts
  const every = Array.from({ length: DOC.length }, (_, i) => i);
  expect(streamed(DOC, every).committed).toEqual(whole);
  let seed = 7;
  for (let run = 0; run < 20; run++) {
    const cuts: number[] = [];
    for (let at = 0; at < DOC.length; ) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      at += 1 + (seed % 40);
      if (at < DOC.length) cuts.push(at);
    }
    expect(streamed(DOC, cuts).committed).toEqual(whole);
  }
});

test("an unclosed fence renders as code while it streams, and a finished block leaves the live region", () => {
  const text = "Intro paragraph.\n\n```ts\nconst a = 1;\nconst b";
  const { liveSeen, committed } = streamed(text, [18, 30]);
  const last = liveSeen.at(-1) ?? [];
  expect(last.join("\n")).toContain("│ const a = 1;");
  expect(last.join("\n")).toContain("│ const b");
  expect(last.join("\n")).not.toContain("Intro paragraph."); // committed already, not shown twice
  expect(committed[0]).toBe("Intro paragraph.");
});

test("escape sequences split across pieces are shown inert, and the same as when whole", () => {
  const text = "before \u001b[2J after\n\nnext";
  const whole = streamed(text, []).committed;
  expect(whole[0]).toBe("before \\e[2J after");
  for (let cut = 1; cut < text.length; cut++) expect(streamed(text, [cut]).committed).toEqual(whole);
});

/** A style that marks what it paints, so the highlighter's token choices can be read back. */
const marking = {
  ...plain,
  caps: { color: true, cursor: true },
  magenta: (t: string) => `<kw>${t}</kw>`,
  green: (t: string) => `<str>${t}</str>`,
  gray: (t: string) => `<com>${t}</com>`,
  yellow: (t: string) => `<num>${t}</num>`,
  cyan: (t: string) => `<type>${t}</type>`,
  red: (t: string) => `<red>${t}</red>`,
  // a diff paints with the theme's two sides (blue and orange in high-contrast), not red and green
  added: (t: string) => `<add>${t}</add>`,
  removed: (t: string) => `<del>${t}</del>`,
};

test("highlighting marks keywords, strings, numbers and comments of known languages; others stay plain", () => {
  expect(highlight('const s = "x"; // note', "ts", marking)).toEqual([
    '<kw>const</kw> s = <str>"x"</str>; <com>// note</com>',
  ]);
  expect(highlight("def f(x):\n    return 42  # c", "python", marking)).toEqual([
    "<kw>def</kw> f(x):",
    "    <kw>return</kw> <num>42</num>  <com># c</com>",
  ]);
  expect(highlight('fn main() { let s: String = "a"; }', "rust", marking)[0]).toBe(
    '<kw>fn</kw> main() { <kw>let</kw> s: <type>String</type> = <str>"a"</str>; }',
  );
  expect(highlight("func main() { return nil }", "go", marking)[0]).toBe(
    "<kw>func</kw> main() { <kw>return</kw> <kw>nil</kw> }",
  );
  expect(highlight('echo "$HOME" # hi', "sh", marking)[0]).toBe(
    '<kw>echo</kw> <str>"$HOME"</str> <com># hi</com>',
  );
  expect(highlight('{"a": true, "n": 1}', "json", marking)[0]).toBe(
    '{<type>"a"</type>: <kw>true</kw>, <type>"n"</type>: <num>1</num>}',
  );
  expect(highlight("-old\n+new", "diff", marking)).toEqual(["<del>-old</del>", "<add>+new</add>"]);
  expect(highlight("plain text", "unknownlang", marking)).toEqual(["plain text"]);
  // a comment spanning lines is marked per line, so each line can carry its own prefix
  expect(highlight("/* a\nb */ x", "ts", marking)).toEqual(["<com>/* a</com>", "<com>b */</com> x"]);
});
