// Output caps: bounded memory, cuts on line or character boundaries, notes that say what was cut.
import { describe, expect, test } from "bun:test";
import { capText, formatBytes, HeadTailBuffer, truncateMiddle } from "../../src/lib/truncate.ts";

describe("HeadTailBuffer", () => {
  test("keeps everything while it fits", () => {
    const b = new HeadTailBuffer(10, 10);
    b.push(Buffer.from("hello "));
    b.push(Buffer.from("world"));
    expect(b.truncated).toBe(false);
    expect(b.text()).toBe("hello world");
  });

  test("keeps head and tail of many chunks and counts the rest", () => {
    const b = new HeadTailBuffer(8, 8);
    for (let i = 0; i < 1000; i++) b.push(Buffer.from("abcdefghij"));
    expect(b.truncated).toBe(true);
    expect(b.total).toBe(10_000);
    const t = b.text();
    expect(t).toStartWith("abcdefgh\n[… ");
    expect(t).toEndWith("…]\ncdefghij");
    expect(t).toContain("9.8 KiB (0 lines) cut from the middle of the output; 9.8 KiB in total");
  });

  test("never splits a UTF-8 character", () => {
    const b = new HeadTailBuffer(5, 5);
    // "é" is two bytes: a cut at 5 bytes falls inside the third one.
    b.push(Buffer.from("éééééééééé"));
    const t = b.text();
    expect(t).not.toContain("\uFFFD");
    expect(t).toStartWith("éé\n[… ");
    expect(t).toEndWith("…]\néé");
  });
});

describe("truncateMiddle and capText", () => {
  test("unchanged when short", () => {
    expect(truncateMiddle("short", 100, "x")).toBe("short");
    expect(capText("short", 100)).toBe("short");
  });

  test("cut in the middle with a note", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line${i}`).join("\n");
    const t = truncateMiddle(text, 100, "ask for less");
    expect(t).toStartWith("line0\n");
    expect(t).toEndWith("line99");
    expect(t).toMatch(/\[… [\d.]+ B \(\d+ lines\) cut from the middle; ask for less …\]/);
    const c = capText(text, 100);
    expect(c).toMatch(/\[… \d+ characters \(\d+ lines\) cut from the middle of 689 …\]/);
    expect(c.length).toBeLessThan(200);
  });

  test("capText keeps surrogate pairs whole", () => {
    const c = capText("😀".repeat(100), 11);
    expect(c).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  test("formatBytes", () => {
    expect(formatBytes(12)).toBe("12 B");
    expect(formatBytes(2048)).toBe("2.0 KiB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MiB");
  });
});
