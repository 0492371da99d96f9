// The request body is a view of one growing buffer, framed by a head and a tail. What it promises: the
// framed bytes are exactly head + text + tail whatever the sizes (a head longer than the room kept for
// it, text that makes the buffer grow many times, characters of every UTF-8 length), and a view of the
// text taken earlier still reads the same after later appends.
import { describe, expect, test } from "bun:test";
import { ByteLog } from "../../src/lib/byte-log.ts";

const utf8 = (b: Uint8Array) => new TextDecoder().decode(b);

describe("ByteLog", () => {
  test("framed is head + every append + tail, across growth and multi-byte text", () => {
    const log = new ByteLog();
    let text = "";
    const pieces = ["a", "ü", "世界", "🎉", "\u2028", "x".repeat(5000)];
    for (let i = 0; i < 400; i++) {
      const piece = `${pieces[i % pieces.length]}${i}`;
      log.append(piece);
      text += piece;
      expect(utf8(log.framed("{", [`]${i}}`]))).toBe(`{${text}]${i}}`);
    }
    expect(log.size).toBe(new TextEncoder().encode(text).length);
  });

  test("a head longer than the room kept for it moves the text, not the result", () => {
    const log = new ByteLog();
    log.append("[1,2,3");
    const head = `{"model":"${"m".repeat(1000)}","messages":`;
    expect(utf8(log.framed(head, ["]}"]))).toBe(`${head}[1,2,3]}`);
    log.append(",4");
    expect(utf8(log.framed("{", ["]"]))).toBe("{[1,2,3,4]");
  });

  test("a tail of strings and kept bytes is written in order, the bytes as they are", () => {
    const log = new ByteLog();
    log.append("[1");
    const kept = new TextEncoder().encode(`,"tools":[{"d":"é — ${"t".repeat(9000)}"}]`);
    for (let i = 0; i < 3; i++) {
      log.append(`,${i}`);
      const got = utf8(log.framed("{", ["]", kept, `,"n":${i}}`]));
      expect(got).toBe(
        `{[1${[0, 1, 2]
          .slice(0, i + 1)
          .map((n) => `,${n}`)
          .join("")}]${utf8(kept)},"n":${i}}`,
      );
    }
  });

  test("the text bytes of an earlier view do not change when the log grows or is framed again", () => {
    const log = new ByteLog();
    log.append("first");
    const earlier = log.framed("<", [">"]);
    const textOf = (v: Uint8Array) => utf8(v.subarray(1, 1 + "first".length));
    log.append("y".repeat(100_000));
    log.framed("<<<<", [">>>>"]);
    expect(textOf(earlier)).toBe("first");
  });
});
