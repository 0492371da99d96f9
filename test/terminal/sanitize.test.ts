// The sanitiser against a corpus of hostile strings: whatever goes in, nothing a terminal would act on
// comes out, and what the text really says stays visible.
import { describe, expect, test } from "bun:test";
import { inertJson, StreamSanitizer, sanitize, sanitizeLine } from "../../src/terminal/sanitize.ts";

/** The first character a terminal would act on or hide: C0 (but \n), DEL, C1, invisible format characters. */
function active(s: string): string | undefined {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    const bad =
      (c < 0x20 && c !== 0x0a) ||
      (c >= 0x7f && c <= 0x9f) ||
      [0x00ad, 0x061c, 0x180e, 0x200b, 0x200e, 0x200f, 0xfeff].includes(c) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2060 && c <= 0x206f) ||
      (c >= 0xfff9 && c <= 0xfffb) ||
      (c >= 0xe0000 && c <= 0xe007f);
    if (bad) return `U+${c.toString(16)}`;
  }
  return undefined;
}

const ESC = "\u001b";
const CORPUS: Array<[string, string]> = [
  ["erase line + CR + cursor up", `ls -la${ESC}[2K\r${ESC}[1A`],
  ["clear screen", `${ESC}[2J${ESC}[H`],
  ["clear scrollback", `${ESC}[3J`],
  ["cursor position", `${ESC}[10;20H`],
  ["save/restore cursor", `${ESC}7text${ESC}8`],
  ["alternate screen", `${ESC}[?1049h`],
  ["hide cursor", `${ESC}[?25l`],
  ["SGR colour (even colours are not theirs to set)", `${ESC}[31mred${ESC}[0m`],
  ["OSC title with BEL", `${ESC}]0;pwned${"\u0007"}`],
  ["OSC 52 clipboard write with ST", `${ESC}]52;c;cm0gLXJmIH4=${ESC}\\`],
  ["OSC 8 hyperlink", `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`],
  ["DCS", `${ESC}P1$r${ESC}\\`],
  ["APC", `${ESC}_payload${ESC}\\`],
  ["PM and SOS", `${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\`],
  ["8-bit CSI (C1)", "\u009b2J"],
  ["8-bit OSC (C1)", "\u009d0;title\u009c"],
  ["backspaces over text", "rm -rf /\b\b\b\b\b\b\b\bls     "],
  ["bare CR overwrite", "rm -rf ~\rls -la  "],
  ["bell", "ding\u0007"],
  ["NUL and DEL", "a\u0000b\u007fc"],
  ["vertical tab, form feed", "a\u000bb\u000cc"],
  ["bidi override (Trojan Source)", "access = \u202e}\u2066if (isAdmin)\u2069 \u2066 begin admins only"],
  ["RLM / LRM / ALM", "a\u200fb\u200ec\u061c"],
  ["zero-width space and BOM", "pass\u200bword\ufeff"],
  ["tag characters (ASCII smuggling)", "hi\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}"],
  ["line separator", "one\u2028two\u2029three"],
  ["lone ESC at the end", `text${ESC}`],
  ["unterminated CSI", `text${ESC}[12`],
  ["unterminated OSC", `${ESC}]0;never ends`],
  ["CSI with a control inside", `${ESC}[1\n2J`],
  ["lone surrogate", "a\ud800b"],
];

describe("sanitize", () => {
  for (const [name, text] of CORPUS) {
    test(`neutralises ${name}`, () => {
      const out = sanitize(text);
      expect(active(out)).toBeUndefined();
      expect(out).not.toContain(ESC);
      const one = sanitizeLine(text);
      expect(active(one)).toBeUndefined();
      expect(one).not.toContain("\n");
    });
  }

  test("shows what was there: the approval case shows the real command and its escapes", () => {
    expect(sanitize(`rm -rf ~/work${ESC}[2K\r${ESC}[1Als -la`)).toBe("rm -rf ~/work\\e[2K^M\\e[1Als -la");
    expect(sanitize(`${ESC}]0;pwned\u0007`)).toBe("\\e]0;pwned\\a");
    expect(sanitize("x\u202ey")).toBe("x\\u202ey");
    expect(sanitize("\u009b2J")).toBe("\\u009b2J");
    expect(sanitize("a\bb")).toBe("a^Hb");
    expect(sanitize(`${ESC}7`)).toBe("\\e7");
  });

  test("keeps ordinary text, newlines, CRLF line ends, emoji and wide characters", () => {
    expect(sanitize("hello\nworld")).toBe("hello\nworld");
    expect(sanitize("dos\r\nline")).toBe("dos\nline");
    expect(sanitize("a\tb")).toBe("a    b");
    expect(sanitize("héllo 日本語 👩‍💻 ✓")).toBe("héllo 日本語 👩‍💻 ✓");
    expect(sanitizeLine("two\nlines")).toBe("two\\nlines");
  });

  test("a sequence split across stream chunks is shown as if it came whole", () => {
    const whole = `abc${ESC}[2Kdef${ESC}]0;t\u0007\r\nend\r`;
    for (let cut = 0; cut <= whole.length; cut++) {
      const s = new StreamSanitizer();
      const out = s.push(whole.slice(0, cut)) + s.push(whole.slice(cut)) + s.end();
      expect(out).toBe(sanitize(whole));
    }
  });

  test("every single code unit of the C0, C1 and format ranges comes out inert", () => {
    for (let c = 0; c < 0x2070; c++) {
      if (c === 0x0a) continue;
      const out = sanitize(`x${String.fromCharCode(c)}y`);
      expect(active(out)).toBeUndefined();
    }
  });

  test("JSON output keeps its meaning and loses everything a terminal would act on", () => {
    const value = { corpus: CORPUS.map(([, t]) => t), emoji: "👩‍💻 日本" };
    const json = inertJson(JSON.stringify(value));
    expect(active(json)).toBeUndefined();
    expect(JSON.parse(json)).toEqual(value);
    expect(json).toContain("👩‍💻 日本");
  });
});
