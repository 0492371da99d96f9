// The render model against a virtual terminal: committed lines land above the live region once, the live
// region is redrawn in place (only from its first changed line), never grows past the screen, and
// without cursor control nothing but plain lines is written.
import { expect, test } from "bun:test";
import { Lines } from "../../src/console/ui/components.ts";
import { KeptLines } from "../../src/console/ui/kept-lines.ts";
import { Screen } from "../../src/console/ui/screen.ts";
import { VirtualTerminal } from "../helpers/vt.ts";

const TTY = { color: false, cursor: true };

test("commits go above the live region, in order, each exactly once", () => {
  const vt = new VirtualTerminal(40, 10);
  const screen = new Screen(vt, TTY);
  const live = new Lines(["status: 1"]);
  const input = new Lines(["> "]);
  screen.mount("input", input, 100);
  screen.mount("status", live, 50);
  screen.flush();
  screen.commit(["first"]);
  screen.flush();
  live.set(["status: 2", "detail"]);
  screen.invalidate();
  screen.commit(["second", "third"]);
  screen.flush();
  expect(vt.text()).toBe(["first", "second", "third", "status: 2", "detail", ">"].join("\n"));
  live.set([]);
  screen.invalidate();
  screen.flush();
  expect(vt.text()).toBe(["first", "second", "third", ">"].join("\n"));
});

test("a frame rewrites only from the first changed line", () => {
  const vt = new VirtualTerminal(40, 10);
  const screen = new Screen(vt, TTY);
  const a = new Lines(["unchanged top line", "old bottom"]);
  screen.mount("a", a);
  screen.flush();
  vt.written = "";
  a.set(["unchanged top line", "new bottom"]);
  screen.invalidate();
  screen.flush();
  expect(vt.written).toContain("new bottom");
  expect(vt.written).not.toContain("unchanged top line");
  expect(vt.text()).toBe("unchanged top line\nnew bottom");
  // nothing changed: nothing redrawn
  vt.written = "";
  screen.invalidate();
  screen.flush();
  expect(vt.written).not.toContain("bottom");
});

test("a live region taller than the screen shows its last rows-1 lines and can still be erased", () => {
  const vt = new VirtualTerminal(30, 6);
  const screen = new Screen(vt, TTY);
  const tall = new Lines(Array.from({ length: 20 }, (_, i) => `line ${i}`));
  screen.mount("tall", tall);
  screen.flush();
  expect(vt.text().split("\n")).toEqual(["line 15", "line 16", "line 17", "line 18", "line 19"]);
  tall.set(["short"]);
  screen.commit(["committed"]);
  screen.flush();
  expect(vt.text()).toBe("committed\nshort");
});

test("long lines are wrapped to the width, never auto-wrapped by the terminal", () => {
  const vt = new VirtualTerminal(21, 10);
  const screen = new Screen(vt, TTY);
  screen.commit(["alpha beta gamma delta epsilon zeta"]);
  screen.mount("live", new Lines(["x".repeat(50)]));
  screen.flush();
  const lines = vt.text().split("\n");
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(20);
  expect(lines.slice(0, 2)).toEqual(["alpha beta gamma", "delta epsilon zeta"]);
});

test("a width change prints the kept lines again in the new width, then the live region at that width", () => {
  const vt = new VirtualTerminal(40, 6);
  const screen = new Screen(vt, TTY, 0);
  screen.commit(["kept line", "alpha beta gamma delta epsilon zeta eta theta"]);
  for (let i = 0; i < 6; i++) screen.commit([`row ${i}`]);
  screen.mount("live", { render: (w) => [`width ${w}`] });
  screen.flush();
  vt.resize(20, 6);
  // The screen and the scrollback were erased first: every line is there once, wrapped to 19 columns.
  const text = vt.text().split("\n");
  expect(text).toEqual([
    "kept line",
    "alpha beta gamma",
    "delta epsilon zeta",
    "eta theta",
    ...Array.from({ length: 6 }, (_, i) => `row ${i}`),
    "width 19",
  ]);
});

test("widths that change within the settle time (a dragged edge) are acted on once, in the last width", async () => {
  const vt = new VirtualTerminal(40, 10);
  const screen = new Screen(vt, TTY, 40);
  screen.commit(["kept"]);
  screen.mount("live", { render: (w) => [`width ${w}`] });
  screen.flush();
  for (const w of [35, 30, 25]) vt.resize(w, 10);
  expect(vt.text()).toBe("kept\nwidth 39");
  await new Promise((r) => setTimeout(r, 120));
  expect(vt.written.split("\u001b[3J").length - 1).toBe(1);
  expect(vt.text()).toBe("kept\nwidth 24");
});

test("clear erases the screen and the scrollback; a later width change does not bring the cleared lines back", () => {
  const vt = new VirtualTerminal(40, 6);
  const screen = new Screen(vt, TTY, 0);
  for (let i = 0; i < 8; i++) screen.commit([`old ${i}`]);
  screen.mount("live", { render: (w) => [`width ${w}`] });
  screen.flush();
  screen.clear();
  screen.commit(["new"]);
  screen.flush();
  expect(vt.text()).toBe("new\nwidth 39");
  vt.resize(30, 6);
  expect(vt.text()).toBe("new\nwidth 29");
});

test("kept lines are bounded: the oldest go and are counted", () => {
  const kept = new KeptLines(10);
  for (let i = 0; i < 25; i++) kept.push([`line ${i}`]);
  expect(kept.lines()).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 15}`));
  expect(kept.dropped).toBe(15);
});

test("without cursor control: plain appended lines, no escapes, live components not drawn", () => {
  const vt = new VirtualTerminal(40, 10);
  const screen = new Screen(vt, { color: false, cursor: false });
  screen.mount("status", new Lines(["never shown"]));
  screen.commit(["one", "two"]);
  screen.flush();
  screen.stop();
  expect(vt.written).toBe("one\ntwo\n");
});

test("the input cursor is placed where the component asks", () => {
  const vt = new VirtualTerminal(40, 10);
  const screen = new Screen(vt, TTY);
  screen.mount("input", { render: () => ["> hello", "second"], cursor: () => ({ row: 0, col: 4 }) });
  screen.flush();
  expect([vt.row, vt.col]).toEqual([0, 4]);
  screen.commit(["above"]);
  screen.flush();
  expect(vt.text()).toBe("above\n> hello\nsecond");
  expect([vt.row, vt.col]).toEqual([1, 4]);
});
