// The report goes out through consola with our reporter: exactly the rendered lines, in order, each at
// once (no badge, no date, no throttling of repeated lines), the verdict last.
import { expect, test } from "bun:test";
import { printReport } from "../../src/doctor/print.ts";
import { type Line, Painted, render, section } from "../../src/doctor/report.ts";
import { makeStyle } from "../../src/terminal/style.ts";

const plain = makeStyle({ color: false, cursor: false });

function printed(lines: Line[], verdict: string, failed: boolean, width?: number): string {
  let out = "";
  printReport(lines, new Painted(verdict), failed, width, (t) => {
    out += t;
  });
  return out;
}

test("the report prints as the rendered lines, a blank line and the verdict", () => {
  const lines: Line[] = [
    "config_dir /tmp/cfg",
    ...section("files", [{ name: "config.json", status: "ok", detail: "2 models" }], plain),
    "a line long enough to wrap at a narrow width of the terminal it is shown in",
  ];
  for (const width of [undefined, 30]) {
    const expected = `${render([...lines, "", new Painted("all checks ok")], width)}\n`;
    expect(printed(lines, "all checks ok", false, width)).toBe(expected);
  }
});

test("a line repeated many times prints every time, at once", () => {
  const problem = "  hooks.json: is an array, not an object";
  const lines = Array.from({ length: 8 }, () => problem);
  const out = printed(lines, "8 problems", true);
  expect(out.split("\n").filter((l) => l === problem)).toHaveLength(8);
  expect(out.endsWith("\n\n8 problems\n")).toBe(true);
});
