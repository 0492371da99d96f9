// The event-stream header strings are decoded once and then found by their bytes: every lookup must give
// the string of exactly those bytes — same length different bytes, a buffer reused for other bytes, UTF-8,
// long values, and more distinct strings of one length than are kept.
import { expect, test } from "bun:test";
import { headerUtf8 } from "../../src/provider/bedrock/wire.ts";

const enc = new TextEncoder();

test("a header string is the UTF-8 of its bytes, whatever was seen before", () => {
  const words = [
    ":event-type",
    ":event-typf",
    "contentBlockDelta",
    "contentBlockStop",
    "événement",
    "x".repeat(200),
  ];
  for (let round = 0; round < 3; round++) for (const w of words) expect(headerUtf8(enc.encode(w))).toBe(w);
  // The same buffer rewritten in place: the cache kept its own copy of the bytes it saw.
  const buf = enc.encode("abcdefgh");
  expect(headerUtf8(buf)).toBe("abcdefgh");
  buf.set(enc.encode("zyxwvuts"));
  expect(headerUtf8(buf)).toBe("zyxwvuts");
  // More distinct strings of one length than the cache keeps: all still right.
  for (let i = 0; i < 40; i++)
    expect(headerUtf8(enc.encode(`k${String(i).padStart(3, "0")}`))).toBe(`k${String(i).padStart(3, "0")}`);
});
