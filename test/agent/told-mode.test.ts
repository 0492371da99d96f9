import { describe, expect, test } from "bun:test";
import { approvalNote, ToldModeReader, toldApprovalMode } from "../../src/agent/approval-note.ts";
import type { History } from "../../src/contract/history.ts";

const sys = (): History => [{ role: "system", content: "s", meta: { approval_mode: "ask" } }];

describe("ToldModeReader", () => {
  test("reads a growing history like a whole scan", () => {
    const r = new ToldModeReader();
    const h = sys();
    expect(r.read(h)).toBe("ask");
    h.push({ role: "user", content: "hi" });
    expect(r.read(h)).toBe("ask");
    h.push(approvalNote("all", "t"));
    expect(r.read(h)).toBe("all");
    h.push({ role: "user", content: "again" });
    expect(r.read(h)).toBe(toldApprovalMode(h));
  });

  test("a replaced or rewritten history is read whole", () => {
    const r = new ToldModeReader();
    const h = sys();
    h.push(approvalNote("none", "t"));
    expect(r.read(h)).toBe("none");
    // A compaction gives a new array without the note.
    expect(r.read(sys())).toBe("ask");
    // The same array cut back and grown again (an undo): the note is gone.
    h.length = 1;
    h.push({ role: "user", content: "x" });
    expect(r.read(h)).toBe("ask");
  });
});
