// The list picker (/resume): moving, scrolling, filtering, choosing and cancelling, and rows drawn inert.
import { describe, expect, test } from "bun:test";
import { KeyDecoder } from "../../../src/console/input/keys.ts";
import { PICKER_ROWS, Picker, type PickerText, type PickOutcome } from "../../../src/console/input/picker.ts";
import { sanitizeLine } from "../../../src/terminal/sanitize.ts";

const text: PickerText = {
  clean: sanitizeLine,
  dim: (s) => `<${s}>`,
  yellow: (s) => `*${s}*`,
  width: (s) => Array.from(s.replace(/[<>*]/g, "")).length,
  fit: (s, w) => Array.from(s).slice(0, w).join(""),
};

function rig(labels: string[], initial?: number) {
  const picker = new Picker({
    title: "pick one:",
    action: "resume",
    rows: labels.map((label, i) => ({ label, detail: `id-${i}` })),
    ...(initial === undefined ? {} : { initial }),
  });
  const d = new KeyDecoder();
  const keys = (raw: string): PickOutcome => {
    let out: PickOutcome;
    for (const ev of [...d.push(raw), ...d.flush()]) out = picker.handle(ev) ?? out;
    return out;
  };
  const marked = () =>
    picker
      .render(80, text)
      .find((l) => l.startsWith("*› "))
      ?.split("  <")[0];
  return { picker, keys, marked };
}

const UP = "\u001b[A";
const DOWN = "\u001b[B";

describe("picker", () => {
  test("starts at `initial`; arrows and Ctrl-P/N move within the list; Enter chooses the marked row", () => {
    const r = rig(["alpha", "beta", "gamma"], 1);
    expect(r.marked()).toBe("*› beta*");
    r.keys(DOWN);
    r.keys(DOWN);
    expect(r.marked()).toBe("*› gamma*");
    r.keys("\u0010");
    expect(r.marked()).toBe("*› beta*");
    r.keys(UP);
    r.keys(UP);
    expect(r.marked()).toBe("*› alpha*");
    expect(r.keys("\r")).toEqual({ kind: "chosen", index: 0 });
  });

  test("Esc and Ctrl-C cancel", () => {
    expect(rig(["a"]).keys("\u001b")).toEqual({ kind: "cancel" });
    expect(rig(["a"]).keys("\u0003")).toEqual({ kind: "cancel" });
  });

  test("typing filters (case-insensitive, label and detail), backspace widens, Enter takes the row's real index", () => {
    const r = rig(["Fix the parser", "write docs", "parser tests"]);
    r.keys("PARSER");
    let lines = r.picker.render(80, text);
    expect(lines.some((l) => l.includes("write docs"))).toBe(false);
    expect(lines.at(-1)).toContain("filter: PARSER");
    r.keys(DOWN);
    expect(r.marked()).toBe("*› parser tests*");
    for (let i = 0; i < 6; i++) r.keys("\u007f");
    lines = r.picker.render(80, text);
    expect(lines.some((l) => l.includes("write docs"))).toBe(true);
    // The marked row stays marked when the filter widens again.
    expect(r.marked()).toBe("*› parser tests*");
    expect(r.keys("\r")).toEqual({ kind: "chosen", index: 2 });
    r.keys("zzz");
    expect(r.picker.render(80, text)).toContain("<  (nothing matches)>");
    expect(r.keys("\r")).toBeUndefined();
  });

  test("a long list scrolls to keep the marked row in view; PgDn/End jump", () => {
    const labels = Array.from({ length: 25 }, (_, i) => `session ${i}`);
    const r = rig(labels);
    const rows = () => r.picker.render(80, text).slice(1, -1);
    expect(rows()).toHaveLength(PICKER_ROWS);
    r.keys("\u001b[6~");
    expect(r.marked()).toBe("*› session 10*");
    expect(rows()[0]).toContain("session 1 ");
    r.keys("\u001b[F");
    expect(r.marked()).toBe("*› session 24*");
    expect(rows().at(-1)).toContain("session 24");
    expect(r.picker.render(80, text).at(-1)).toContain("25/25");
    r.keys("\u001b[H");
    expect(r.marked()).toBe("*› session 0*");
  });

  test("rows are cleaned before they are drawn and fit the width", () => {
    const r = rig(["evil\u001b[2Jtitle", "x".repeat(200)]);
    const lines = r.picker.render(40, text);
    expect(lines.join("\n")).not.toContain("\u001b");
    expect(lines[1]).toContain("[2Jtitle");
    for (const l of lines) expect(text.width(l)).toBeLessThanOrEqual(40);
  });
});
