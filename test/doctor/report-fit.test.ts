// The doctor report fitted to a width: prose wraps at spaces under its own indent plus two, a table's
// last column wraps under itself (or goes below the row when it would be too narrow), nothing is
// lost, and without a width (a pipe) every line stays whole.
import { expect, test } from "bun:test";
import { type Row, render, section, Table } from "../../src/doctor/report.ts";
import { makeStyle } from "../../src/terminal/style.ts";

const plain = makeStyle({ color: false, cursor: false });
const PROBLEM = "/a/rather/long/path/to/desktop.json: malformed JSON (x); fix the syntax or regenerate it";
const rows: Row[] = [
  { name: "desktop.json", status: "FAILED", detail: "", problem: PROBLEM },
  { name: "endpoint", status: "-", detail: "not contacted (`i doctor --online` sends one small request)" },
];
const words = (s: string) => s.split(/\s+/).filter(Boolean);

test("without a width every line is whole", () => {
  const out = render(section("target", rows, plain));
  expect(out.split("\n")).toContain(`  ${PROBLEM}`);
});

test("at 30 and 50 columns every line fits, breaks fall on spaces, indents hang", () => {
  for (const width of [30, 50]) {
    const lines = render(section("target", rows, plain), width).split("\n");
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
    // The problem starts on its own line, 2 in, and continues 4 in; rejoined it is the message (at 30
    // its 36-column path cannot fit a line and is the one place split inside a word).
    const at = lines.findIndex((l) => l.startsWith("  /a/rather"));
    expect(at).toBeGreaterThan(0);
    const cont = lines.slice(at + 1).filter((l) => l.startsWith("    "));
    const joined = [lines[at], ...cont].join(" ");
    if (width === 50) expect(words(joined)).toEqual(words(PROBLEM));
    else expect(joined.replace(/\s+/g, "")).toBe(PROBLEM.replace(/\s+/g, ""));
  }
  // At 50 the endpoint's detail wraps under its own column.
  const lines = render(section("target", rows, plain), 50).split("\n");
  const row = lines.findIndex((l) => l.startsWith("  endpoint"));
  const col = (lines[row] ?? "").indexOf("not contacted");
  expect(lines[row + 1]?.slice(0, col).trim()).toBe("");
  expect(lines[row + 1]?.[col]).not.toBe(" ");
});

test("a table whose last column would be too narrow puts it below the row", () => {
  const t = new Table([
    ["MODULE", "KIND", "STATUS", "EXEC"],
    ["budget", "built-in", "ok", "i worker budget,prompts"],
  ]);
  expect(t.lines(30)).toEqual([
    "MODULE  KIND      STATUS  EXEC",
    "budget  built-in  ok",
    "    i worker budget,prompts",
  ]);
  expect(t.lines()).toEqual([
    "MODULE  KIND      STATUS  EXEC",
    "budget  built-in  ok      i worker budget,prompts",
  ]);
});
