// The line editor model and its key bindings: readline keys, word motions, multi-line input, newline via
// Shift/Alt+Enter and `\`+Enter, and large pastes collapsed in view but submitted whole.
import { describe, expect, test } from "bun:test";
import { applyInput } from "../../../src/console/input/bindings.ts";
import { LineEditor } from "../../../src/console/input/editor.ts";
import { KeyDecoder } from "../../../src/console/input/keys.ts";

/** Type raw terminal input into a fresh editor; returns the editor and the actions taken. */
function type(raw: string, ed = new LineEditor()) {
  const d = new KeyDecoder();
  const actions = [...d.push(raw), ...d.flush()].map((ev) => applyInput(ed, ev));
  return { ed, actions };
}

/** The buffer with a | at the cursor. */
const view = (ed: LineEditor) => `${ed.text.slice(0, ed.cursor)}|${ed.text.slice(ed.cursor)}`;

describe("line editor", () => {
  test("insert, move, delete", () => {
    const { ed } = type("helo\x1b[D\x1b[Dl\x01X\x05Y\x7f\x1b[D\x1b[3~");
    expect(view(ed)).toBe("Xhell|");
  });

  test("word motions: Ctrl-Left/Right, Alt-B/F; Ctrl-W, Alt-D, Ctrl-U, Ctrl-K, Ctrl-Y", () => {
    expect(view(type("one two three\x1b[1;5D\x1b[1;5D").ed)).toBe("one |two three");
    expect(view(type("one two three\x1bb\x1bb\x1bf").ed)).toBe("one two| three");
    expect(view(type("one two three\x17").ed)).toBe("one two |");
    expect(view(type("one two three\x01\x1bd").ed)).toBe("| two three");
    expect(view(type("one two\x1bb\x15").ed)).toBe("|two");
    expect(view(type("one two\x1bb\x0b").ed)).toBe("one |");
    expect(view(type("one two\x17\x01\x19").ed)).toBe("two|one ");
  });

  test("newlines: Shift+Enter, Alt+Enter, backslash+Enter; Enter alone submits", () => {
    const { ed, actions } = type("a\x1b[13;2ub\x1b\rc\\\rd");
    expect(ed.text).toBe("a\nb\nc\nd");
    expect(actions).not.toContain("submit");
    expect(type("go\r").actions.at(-1)).toBe("submit");
  });

  test("Up/Down move between lines, and ask for history at the edges", () => {
    const { ed, actions } = type("first\x1b[13;2usecond\x1b[A");
    expect(view(ed)).toBe("first|\nsecond");
    const more = type("\x1b[A\x1b[B\x1b[B", ed).actions;
    expect(actions.at(-1)).toBe("changed");
    expect(more).toEqual(["history-prev", "changed", "history-next"]);
  });

  test("Ctrl-C, Ctrl-D on an empty line, Esc, Tab, Ctrl-R are the console's to handle", () => {
    expect(type("\x03").actions).toEqual(["interrupt"]);
    expect(type("\x04").actions).toEqual(["eof"]);
    expect(type("ab\x01\x04").ed.text).toBe("b");
    expect(type("\t\x12\x1b").actions).toEqual(["complete", "search", "escape"]);
  });

  test("a large paste shows as one token, moves and deletes as a unit, and is submitted whole", () => {
    const body = "l1\nl2\nl3\nl4\nl5";
    const { ed } = type(`see \x1b[200~${body}\x1b[201~ ok`);
    expect(ed.text).toBe("see [pasted 5 lines] ok");
    type("\x1b[D\x1b[D\x1b[D\x1b[D", ed);
    expect(view(ed)).toBe("see |[pasted 5 lines] ok");
    type("\x1b[C", ed);
    expect(view(ed)).toBe("see [pasted 5 lines]| ok");
    expect(ed.submit()).toBe(`see ${body} ok`);
    const gone = type(`\x1b[200~${body}\x1b[201~\x7f`).ed;
    expect(gone.text).toBe("");
  });

  test("a small paste is inserted as typed text; newlines in it never submit", () => {
    const { ed, actions } = type("\x1b[200~a\nb\x1b[201~");
    expect(ed.text).toBe("a\nb");
    expect(actions).toEqual(["changed"]);
  });

  test("two large pastes get distinct tokens", () => {
    const p = "1\n2\n3\n4";
    const { ed } = type(`\x1b[200~${p}\x1b[201~ \x1b[200~${p}\x1b[201~`);
    expect(ed.text).toBe("[pasted 4 lines] [pasted 4 lines #2]");
    expect(ed.submit()).toBe(`${p} ${p}`);
  });
});
