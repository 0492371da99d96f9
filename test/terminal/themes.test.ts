// Themes: the palette a style paints with, switched in place; no colour at all without colour support;
// the OSC 11 answer and COLORFGBG read as light or dark.
import { expect, test } from "bun:test";
import { themeFromAnswer, themeFromColorFgBg } from "../../src/console/theme-probe.ts";
import { makeStyle, setTheme } from "../../src/terminal/style.ts";

const ESC = "\u001b";

test("dark paints with the terminal's palette; light and high-contrast with their own; a taken paint follows", () => {
  const s = makeStyle({ color: true, cursor: true });
  const added = s.added;
  expect(added("+x")).toBe(`${ESC}[32m+x${ESC}[39m`);
  setTheme(s, "light");
  expect(s.theme).toBe("light");
  expect(added("+x")).toBe(`${ESC}[38;5;28m+x${ESC}[39m`);
  setTheme(s, "high-contrast");
  expect(s.removed("-x")).toBe(`${ESC}[1;38;5;208m-x${ESC}[22;39m`);
  expect(s.added("+x")).toContain("38;5;33");
  expect(s.dim("note")).toBe("note");
});

test("a nested paint ending gives the outer colour back", () => {
  const s = makeStyle({ color: true, cursor: true });
  expect(s.red(`a ${s.green("b")} c`)).toBe(`${ESC}[31ma ${ESC}[32mb${ESC}[39m${ESC}[31m c${ESC}[39m`);
});

test("without colour (NO_COLOR, TERM=dumb, a pipe) every theme paints nothing", () => {
  const s = makeStyle({ color: false, cursor: false }, "high-contrast");
  expect(s.added("+x")).toBe("+x");
  setTheme(s, "light");
  expect(s.yellow("y")).toBe("y");
});

test("the terminal's background answer and COLORFGBG", () => {
  expect(themeFromAnswer(`${ESC}]11;rgb:ffff/ffff/ffff\u0007`)?.theme).toBe("light");
  expect(themeFromAnswer(`${ESC}]11;rgb:1e1e/1e1e/2e2e${ESC}\\`)?.theme).toBe("dark");
  expect(themeFromAnswer(`ab${ESC}]11;rgb:fd/f6/e3\u0007cd`)).toEqual({ theme: "light", rest: "abcd" });
  expect(themeFromAnswer("nothing")).toBeUndefined();
  expect(themeFromColorFgBg("0;15")).toBe("light");
  expect(themeFromColorFgBg("15;default;0")).toBe("dark");
  expect(themeFromColorFgBg(undefined)).toBeUndefined();
});

/** A terminal's input as the probe uses it: `answer` arrives after the query, or nothing does. */
function fakeStdin(answer?: string) {
  let cb: ((b: Buffer) => void) | undefined;
  const unshifted: string[] = [];
  return {
    unshifted,
    isTTY: true,
    setRawMode: () => {},
    on: (_: "data", f: (b: Buffer) => void) => {
      cb = f;
    },
    off: () => {
      cb = undefined;
    },
    resume: () => {},
    pause: () => {},
    unshift: (b: Buffer) => unshifted.push(b.toString()),
    reply: () => answer !== undefined && cb?.(Buffer.from(answer)),
  };
}

test("the probe: an answer decides at once and typed-ahead bytes are handed back; silence ends at the timeout", async () => {
  const { autoTheme, probeBackground } = await import("../../src/console/theme-probe.ts");
  const white = fakeStdin(`x${ESC}]11;rgb:ffff/ffff/ffff\u0007`);
  const asked: string[] = [];
  const p = probeBackground(white, (t) => {
    asked.push(t);
    setTimeout(() => white.reply(), 5);
  });
  expect(await p).toBe("light");
  expect(asked).toEqual([`${ESC}]11;?\u0007`]);
  expect(white.unshifted).toEqual(["x"]);
  const started = Date.now();
  expect(await probeBackground(fakeStdin(), () => {}, 50)).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(2000);
  expect(await autoTheme({ ...fakeStdin(), isTTY: false }, () => {}, { COLORFGBG: "0;15" })).toBe("light");
  expect(await autoTheme({ ...fakeStdin(), isTTY: false }, () => {}, {})).toBe("dark");
});
