// Images from their bytes: the four formats and their sizes read from the headers; damaged, huge or
// over-large images refused in one line; labels numbered; paths as terminals paste them.
import { expect, test } from "bun:test";
import { ImageAttachments, MAX_IMAGE_BYTES, pastedPath } from "../../src/console/images/attachments.ts";
import { clipboardTool } from "../../src/console/images/clipboard.ts";
import { imageInfo } from "../../src/lib/image-info.ts";
import { makePng } from "../fixtures/images/png.ts";

test("PNG, GIF, JPEG and WebP sizes come from their headers; anything else is no image", () => {
  expect(imageInfo(makePng(800, 600))).toEqual({
    format: "png",
    mediaType: "image/png",
    width: 800,
    height: 600,
  });
  const gif = Buffer.from("GIF89a\x20\x03\x58\x02\x00\x00\x00", "latin1");
  expect(imageInfo(gif)).toMatchObject({ format: "gif", width: 800, height: 600 });
  // SOI, an APP0 segment, then SOF0 with height 600 and width 800
  const jpeg = Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20,
    0x03, 0, 0, 0, 0, 0, 0,
  ]);
  expect(imageInfo(jpeg)).toMatchObject({ format: "jpeg", width: 800, height: 600 });
  const vp8x = Buffer.alloc(30);
  vp8x.write("RIFF", 0, "latin1");
  vp8x.write("WEBPVP8X", 8, "latin1");
  vp8x.writeUIntLE(799, 24, 3);
  vp8x.writeUIntLE(599, 27, 3);
  expect(imageInfo(vp8x)).toMatchObject({ format: "webp", width: 800, height: 600 });
  expect(imageInfo(Buffer.from("hello"))).toBeUndefined();
  expect(imageInfo(makePng(8, 8).subarray(0, 20))).toBeUndefined();
});

test("labels, and one line for a damaged, huge or over-large image", () => {
  const images = new ImageAttachments();
  const a = images.add(makePng(800, 600), "shot.png");
  expect(typeof a === "string" ? a : a.label).toMatch(/^\[image 1: png 800×600 \d+ KB\]$/);
  expect(images.add(Buffer.from("not an image"), "bad.png")).toBe(
    "bad.png is not a PNG, JPEG, GIF or WebP image",
  );
  expect(images.add(makePng(9000, 10), "wide.png")).toBe(
    "wide.png is 9000×10 pixels; images up to 8000 pixels a side can be sent (make a smaller copy)",
  );
  expect(images.add(Buffer.alloc(MAX_IMAGE_BYTES + 1), "big.png")).toBe(
    "big.png is 5.0 MB; images up to 5.0 MB can be sent (make a smaller copy)",
  );
  const b = images.add(makePng(10, 10), "two.png");
  const label = typeof b === "string" ? "" : b.label;
  expect(images.inText(`look ${label} and ${label}`).map((x) => x.n)).toEqual([2]);
});

test("paths as pasted: quoted, file:// URLs, escaped spaces, ~, relative to the workspace", () => {
  expect(pastedPath("'/tmp/a b.png'", "/ws")).toBe("/tmp/a b.png");
  expect(pastedPath("file:///tmp/a%20b.png", "/ws")).toBe("/tmp/a b.png");
  expect(pastedPath("/tmp/a\\ b.png", "/ws")).toBe("/tmp/a b.png");
  expect(pastedPath("shots/x.png", "/ws")).toBe("/ws/shots/x.png");
  expect(pastedPath("two\nlines", "/ws")).toBeUndefined();
});

test("the clipboard tool: none on an empty PATH", () => {
  expect(clipboardTool({ PATH: "/nonexistent" }, "linux")).toBeUndefined();
});

test("at submit: an absolute path attaches for a vision model; a bare name is talk; a mention is explicit", async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { prepareImages } = await import("../../src/console/images/submit-images.ts");
  const ws = mkdtempSync(join(tmpdir(), "i-img-"));
  try {
    writeFileSync(join(ws, "logo.png"), makePng(4, 4));
    const abs = join(ws, "logo.png");
    const vision = { name: "v", images: "keep" };
    const text = { name: "t", images: "omit" };
    const sent = prepareImages(`what is ${abs}?`, ws, vision);
    expect("images" in sent && sent.images.length).toBe(1);
    expect("text" in sent && sent.text).toMatch(/^what is \[image \d+: png 4×4 1 KB\]\?$/);
    const talk = prepareImages("fix the alt text of logo.png", ws, text);
    expect(talk).toEqual({ text: "fix the alt text of logo.png", images: [], notes: [] });
    expect(prepareImages(`see ${abs}`, ws, text)).toMatchObject({ images: [] });
    const refused = prepareImages("look at @logo.png", ws, text);
    expect("refused" in refused && refused.refused).toContain(
      "t takes no images (its model table entry says images: omit)",
    );
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
