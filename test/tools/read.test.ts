// The read tool: line numbers, ranges, caps with notes, images, binary refusal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { READ_MAX_BYTES, READ_MAX_LINE_CHARS, READ_MAX_LINES } from "../../src/tools/read.ts";
import { GIF, JPEG, WEBP } from "../fixtures/images/samples.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const ctx = () => ({ workspace: sb.workspace, approvals: new Approvals({ policy: "none" }) });
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

beforeAll(() => {
  sb = makeSandbox();
  const w = (name: string, data: string | Uint8Array) => writeFileSync(join(sb.workspace, name), data);
  w("small.txt", "alpha\nbeta\r\ngamma");
  w("empty.txt", "");
  w("many.txt", Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join("\n"));
  // 1000 lines of 1 KiB: the byte cap (256 KiB) is reached long before the line cap.
  w("wide.txt", Array.from({ length: 1000 }, (_, i) => `${i + 1}:${"w".repeat(1020)}`).join("\n"));
  w("long-line.txt", `short\n${"x".repeat(10_000)}\nafter\n`);
  w("image.png", PNG);
  w("photo.jpg", JPEG);
  w("anim.gif", GIF);
  w("pic.webp", WEBP);
  w("blob.bin", Buffer.from([1, 2, 3, 0, 4, 5, 6, 7]));
  w("doc.pdf", "%PDF-1.7\n%binary");
  w("not-really.png", "just text with a .png name\n");
  mkdirSync(join(sb.workspace, "folder"));
});
afterAll(() => sb.cleanup());

describe("read: text", () => {
  test("whole small file with line numbers; CRLF and a missing final newline handled", async () => {
    const r = await run("read", { path: "small.txt" }, ctx());
    expect(r.is_error).toBe(false);
    expect(r.content).toBe("1\talpha\n2\tbeta\n3\tgamma");
  });

  test("offset and limit pick a range and say where it is", async () => {
    const r = await run("read", { path: "many.txt", offset: 10, limit: 3 }, ctx());
    expect(r.text).toBe(
      "10\tline 10\n11\tline 11\n12\tline 12\n[showing lines 10-12 of 5000; call read with offset=13 to see more]",
    );
  });

  test("a range reaching the end says so without suggesting more", async () => {
    const r = await run("read", { path: "many.txt", offset: 4999 }, ctx());
    expect(r.text).toBe("4999\tline 4999\n5000\tline 5000\n[showing lines 4999-5000 of 5000]");
  });

  test("at most READ_MAX_LINES lines, with a note on how to read on", async () => {
    const r = await run("read", { path: "many.txt" }, ctx());
    const lines = r.text.split("\n");
    expect(lines.length).toBe(READ_MAX_LINES + 1);
    expect(lines[READ_MAX_LINES - 1]).toBe(`${READ_MAX_LINES}\tline ${READ_MAX_LINES}`);
    expect(lines[READ_MAX_LINES]).toBe(
      `[showing lines 1-${READ_MAX_LINES} of 5000; call read with offset=${READ_MAX_LINES + 1} to see more]`,
    );
    const big = await run("read", { path: "many.txt", limit: 4000 }, ctx());
    expect(big.text).toContain(
      `[at most ${READ_MAX_LINES} lines per call; showing lines 1-${READ_MAX_LINES} of 5000;`,
    );
  });

  test("the byte cap cuts on a line boundary and says so", async () => {
    const r = await run("read", { path: "wide.txt" }, ctx());
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(READ_MAX_BYTES + 200);
    const lines = r.text.split("\n");
    const note = lines.pop() as string;
    const last = lines.length;
    expect(note).toBe(
      `[output capped at 256.0 KiB; showing lines 1-${last} of 1000; call read with offset=${last + 1} to see more]`,
    );
    expect(lines[last - 1]).toBe(`${last}\t${last}:${"w".repeat(1020)}`);
  });

  test("very long lines are cut with a marker and a note", async () => {
    const r = await run("read", { path: "long-line.txt" }, ctx());
    const lines = r.text.split("\n");
    expect(lines[0]).toBe("1\tshort");
    expect(lines[1]).toBe(
      `2\t${"x".repeat(READ_MAX_LINE_CHARS)} [… line cut at ${READ_MAX_LINE_CHARS} characters]`,
    );
    expect(lines[2]).toBe("3\tafter");
    expect(lines[3]).toContain("1 long line was cut");
  });

  test("empty file", async () => {
    const r = await run("read", { path: "empty.txt" }, ctx());
    expect(r).toMatchObject({ is_error: false, text: "empty.txt is empty (0 lines)" });
  });

  test("offset past the end", async () => {
    const r = await run("read", { path: "small.txt", offset: 9 }, ctx());
    expect(r).toMatchObject({
      is_error: true,
      text: "offset 9 is past the end of small.txt, which has 3 lines",
    });
  });

  test("missing file, directory, invalid range", async () => {
    expect(await run("read", { path: "nope.txt" }, ctx())).toMatchObject({
      is_error: true,
      text: "file not found: nope.txt",
    });
    expect((await run("read", { path: "folder" }, ctx())).text).toContain("folder is a directory");
    const bad = await run("read", { path: "small.txt", offset: 0 }, ctx());
    expect(bad.is_error).toBe(true);
    expect(bad.text).toStartWith("invalid arguments for read: offset:");
  });
});

describe("read: images and binary files", () => {
  test("PNG comes back as an image part with its base64 data", async () => {
    const r = await run("read", { path: "image.png" }, ctx());
    expect(r.is_error).toBe(false);
    expect(Array.isArray(r.content)).toBe(true);
    const parts = r.content as { type: string; media_type?: string; data?: string }[];
    expect(parts[0]?.type).toBe("text");
    expect(parts[1]).toEqual({ type: "image", media_type: "image/png", data: PNG.toString("base64") });
  });

  test("JPEG, GIF and WebP are recognised by content", async () => {
    for (const [file, type] of [
      ["photo.jpg", "image/jpeg"],
      ["anim.gif", "image/gif"],
      ["pic.webp", "image/webp"],
    ] as const) {
      const r = await run("read", { path: file }, ctx());
      expect((r.content as { media_type?: string }[])[1]?.media_type).toBe(type);
    }
  });

  test("a .png name with text inside is read as text", async () => {
    const r = await run("read", { path: "not-really.png" }, ctx());
    expect(r.content).toBe("1\tjust text with a .png name");
  });

  test("binary files are refused clearly", async () => {
    const bin = await run("read", { path: "blob.bin" }, ctx());
    expect(bin).toMatchObject({
      is_error: true,
      text: "blob.bin is binary data (contains NUL bytes) (8 B), not text; read cannot show it",
    });
    const pdf = await run("read", { path: "doc.pdf" }, ctx());
    expect(pdf.is_error).toBe(true);
    expect(pdf.text).toStartWith("doc.pdf is a PDF document");
  });
});
