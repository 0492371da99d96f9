// The NDJSON line decoder: the same lines whether bytes are pushed in chunks or read straight into its
// buffer, multi-byte characters and long lines across reads, the size cap, and a switch between the two.
import { describe, expect, test } from "bun:test";
import { type FramingFault, LineDecoder } from "../../src/lib/framing.ts";

function collect(max = 1 << 30) {
  const lines: string[] = [];
  const bytes: string[] = [];
  const faults: FramingFault[] = [];
  const d = new LineDecoder(
    max,
    (l, b) => {
      lines.push(l);
      bytes.push(Buffer.from(b).toString("utf8"));
    },
    (f) => faults.push(f),
  );
  return { d, lines, bytes, faults };
}

/** A reader that serves `data` at most `step` bytes per call, like a pipe. */
function reader(data: Uint8Array, step: number) {
  let at = 0;
  return (into: Uint8Array, offset: number, length: number) => {
    const n = Math.min(step, length, data.length - at);
    into.set(data.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

const text = `${["short", "ünï 🧪 ".repeat(50_000), "", "x".repeat(3_000_000), "last"].join("\n")}\n`;
const data = Buffer.from(text);
const expected = text.split("\n").slice(0, -1);

describe("LineDecoder", () => {
  for (const step of [7, 65_536, 1 << 22]) {
    test(`fill() and push() give the same lines, read ${step} bytes at a time`, () => {
      const a = collect();
      const read = reader(data, step);
      while (a.d.fill(read) > 0);
      const b = collect();
      for (let i = 0; i < data.length; i += step) b.d.push(data.subarray(i, i + step));
      expect(a.lines).toEqual(expected);
      expect(b.lines).toEqual(expected);
      // The bytes handed with each line are that line's UTF-8.
      expect(a.bytes).toEqual(expected);
      expect(b.bytes).toEqual(expected);
      expect(a.d.pending).toBe(0);
    });
  }

  test("a line over the cap is a fault, in either mode", () => {
    const long = Buffer.from(`${"y".repeat(5000)}\nnext\n`);
    const a = collect(4096);
    const read = reader(long, 1000);
    while (a.d.fill(read) > 0);
    expect(a.faults).toEqual(["oversize"]);
    expect(a.lines).toEqual([]);
    const b = collect(4096);
    b.d.push(long);
    expect(b.faults).toEqual(["oversize"]);
  });

  test("invalid UTF-8 is a fault; nothing after it is delivered", () => {
    const a = collect();
    a.d.fill(reader(Buffer.from([0x61, 0x0a, 0xff, 0x0a, 0x62, 0x0a]), 100));
    expect(a.lines).toEqual(["a"]);
    expect(a.faults).toEqual(["encoding"]);
  });

  test("bytes read but not yet a line carry over to push()", () => {
    const a = collect();
    a.d.fill(reader(Buffer.from("one\ntw"), 100));
    expect(a.d.pending).toBe(2);
    a.d.push(Buffer.from("o\nthree\n"));
    expect(a.lines).toEqual(["one", "two", "three"]);
    expect(a.d.pending).toBe(0);
  });
});
