// Ghost text in the completion menus: the rest of the marked row, dim after the caret, only when the row
// continues what was typed and the caret ends the line; → takes it as Tab does, and moves the caret
// otherwise.
import { describe, expect, test } from "bun:test";
import { InputHistory } from "../../../src/console/input/history.ts";
import { KeyDecoder } from "../../../src/console/input/keys.ts";
import { ghostText, menuFor } from "../../../src/console/input/menu.ts";
import { PromptController } from "../../../src/console/input/prompt.ts";

const SOURCE = {
  commands: () => [
    { name: "model", help: "switch the model" },
    { name: "compact", help: "compact now" },
    { name: "compactions", help: "list compactions" },
  ],
  paths: (partial: string) => ["src/", "src/deep/", "README.md"].filter((p) => p.startsWith(partial)),
  files: (q: string) => (q === "dpx" ? ["src/deep/x.ts"] : []),
};

function prompt() {
  const p = new PromptController(
    {
      submit: () => {},
      interrupt: () => {},
      escape: () => {},
      eof: () => {},
      notAnswer: () => {},
      cycleMode: () => {},
      expand: () => {},
      changed: () => {},
    },
    new InputHistory(undefined),
    {
      charWidth: () => 1,
      clean: (s) => s,
      dim: (s) => `<${s}>`,
      yellow: (s) => s,
      mark: (s) => `[${s.trim()}]`,
      width: (s) => Array.from(s).length,
      fit: (s, w) => Array.from(s).slice(0, w).join(""),
    },
    { commands: () => [], paths: () => [], menu: SOURCE },
  );
  const d = new KeyDecoder();
  const type = (raw: string) => {
    for (const ev of [...d.push(raw), ...d.flush()]) p.handle(ev);
  };
  return { p, type };
}

describe("ghost text", () => {
  test("the rest of a prefix match; none for a fuzzy match, a caret inside the line, or an exact token", () => {
    const at = (text: string, cursor = text.length) => {
      const menu = menuFor(text, cursor, SOURCE);
      return menu ? ghostText(menu, 0, text, cursor) : undefined;
    };
    expect(at("/mo")).toBe("del");
    expect(at("/compact")).toBe(undefined); // typed out already: "compact" is the first row
    expect(at("see @sr")).toBe("c/");
    expect(at("@dpx")).toBe(undefined);
    expect(at("/mo x", 3)).toBe(undefined);
  });

  test("drawn dim after the caret, which stays where it was; → takes it, then the menu follows", () => {
    const { p, type } = prompt();
    type("/mo");
    expect(p.render(40)[0]).toBe("› /mo<del>");
    expect(p.cursor()).toEqual({ row: 0, col: 5 });
    type("\x1b[C"); // →
    expect(p.editor.text).toBe("/model ");
    type("\x15@sr");
    expect(p.render(40)[0]).toBe("› @sr<c/>");
    type("\x1b[C");
    expect(p.editor.text).toBe("@src/");
    // Cut to the room left on the line, never wrapped.
    type("\x15/com");
    expect(p.render(9)[0]).toBe("› /com<pa>");
    expect(p.render(7)[0]).toBe("› /com");
  });

  test("with the caret inside the line, → only moves it", () => {
    const { p, type } = prompt();
    type("/mo\x1b[D");
    expect(p.render(40)[0]).toBe("› /mo");
    type("\x1b[C");
    expect(p.editor.text).toBe("/mo");
    expect(p.editor.cursor).toBe(3);
  });
});
