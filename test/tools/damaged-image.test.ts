// A damaged image is never sent to the model, whichever way it comes: the read tool, an image attached in
// the console (a pasted path, an @-mention, the clipboard: all through ImageAttachments.add), an MCP
// server's result. A PNG cut short keeps a good header, so only its missing end tells it is damaged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ImageAttachments } from "../../src/console/images/attachments.ts";
import { checkImage } from "../../src/lib/image-info.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { capToolOutput } from "../../src/tools/output-cap.ts";
import { mapCallResult } from "../../workers/mcp/results.ts";
import { makePng } from "../fixtures/images/png.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

const WHOLE = makePng(40, 30);
const CUT = WHOLE.subarray(0, WHOLE.length - 20);
const HEADER_ONLY = WHOLE.subarray(0, 16);

let sb: Sandbox;
const ctx = () => ({ workspace: sb.workspace, approvals: new Approvals({ policy: "none" }) });
beforeAll(() => {
  sb = makeSandbox();
  writeFileSync(join(sb.workspace, "cut.png"), CUT);
  writeFileSync(join(sb.workspace, "header.png"), HEADER_ONLY);
  writeFileSync(join(sb.workspace, "whole.png"), WHOLE);
});
afterAll(() => sb.cleanup());

const hasImage = (content: unknown) =>
  Array.isArray(content) && content.some((p: { type: string }) => p.type === "image");

test("read: a PNG cut short or with a cut header is an error naming it, with no image part", async () => {
  for (const name of ["cut.png", "header.png"]) {
    const r = await run("read", { path: name }, ctx());
    expect(r.is_error).toBe(true);
    expect(hasImage(r.content)).toBe(false);
    expect(String(r.content)).toContain(name);
    expect(String(r.content)).toContain("damaged");
  }
  const ok = await run("read", { path: "whole.png" }, ctx());
  expect(hasImage(ok.content)).toBe(true);
});

test("console attachments: a PNG cut short is one line, not an attachment", () => {
  const a = new ImageAttachments();
  const out = a.add(CUT, "shot.png");
  expect(typeof out).toBe("string");
  expect(out as string).toContain("shot.png");
  expect(typeof a.add(WHOLE, "good.png")).toBe("object");
});

test("an MCP result's damaged image becomes a note; a whole one stays an image", () => {
  const r = mapCallResult({
    content: [
      { type: "image", mimeType: "image/png", data: CUT.toString("base64") },
      { type: "image", mimeType: "image/png", data: WHOLE.toString("base64") },
    ],
  });
  const parts = r.content as { type: string; text?: string }[];
  expect(parts[0]?.type).toBe("text");
  expect(parts[0]?.text).toContain("damaged");
  expect(parts[1]?.type).toBe("image");
});

test("checkImage: each format's end is checked", () => {
  expect(typeof checkImage(WHOLE)).toBe("object");
  expect(checkImage(CUT)).toBe("a damaged PNG image (it is cut short)");
  expect(checkImage(Buffer.from("hello"))).toBe("not a PNG, JPEG, GIF or WebP image");
});

test("any untrusted tool's result (a module's, a replaced MCP module's): a damaged image becomes a note", () => {
  const r = capToolOutput(
    {
      content: [
        { type: "image", media_type: "image/png", data: CUT.toString("base64") },
        { type: "image", media_type: "image/png", data: WHOLE.toString("base64") },
      ],
      is_error: false,
    },
    "untrusted",
  );
  const parts = r.content as { type: string; text?: string }[];
  expect(parts[0]).toEqual({
    type: "text",
    text: "[image image/png left out: a damaged PNG image (it is cut short)]",
  });
  expect(parts[1]?.type).toBe("image");
});
