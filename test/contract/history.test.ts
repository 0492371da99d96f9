// Reading message content as text: plain (images skipped) and readable (images named).
import { describe, expect, test } from "bun:test";
import { type Content, contentText, contentWithImageMarkers } from "../../src/contract/history.ts";

const parts: Content = [
  { type: "text", text: "before" },
  { type: "image", media_type: "image/png", data: "iVBORw0KGgo=" },
  { type: "text", text: "after" },
];

describe("content as text", () => {
  test("a string is itself either way", () => {
    expect(contentText("a\nb")).toBe("a\nb");
    expect(contentWithImageMarkers("a\nb")).toBe("a\nb");
  });

  test("contentText skips images; contentWithImageMarkers names them, never their bytes", () => {
    expect(contentText(parts)).toBe("before\nafter");
    expect(contentWithImageMarkers(parts)).toBe("before\n[image image/png]\nafter");
  });
});
