// keybindings.json: strict, one line for each kind of mistake; the key map translates a rebound key into
// its action's default key, silences a default key that was moved, and leaves everything alone without
// a file.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { KeyMap } from "../../src/console/input/keymap.ts";
import type { Key } from "../../src/console/input/keys.ts";
import { KeybindingsFile } from "../../src/contract/keybindings.ts";
import { parseWith } from "../../src/lib/json-file.ts";

const FILE = join("/cfg", "keybindings.json");
const problem = (value: unknown): string => {
  try {
    parseWith(FILE, KeybindingsFile, value);
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

test("each mistake is one line naming the file, the action and the fix", () => {
  expect(problem({ sumbit: "ctrl+s" })).toMatch(/^\/cfg\/keybindings\.json: .*sumbit.*did you mean "submit"/);
  expect(problem({ submit: "ctrl+banana" })).toContain(
    'unknown key "banana"; keys are a single character or enter, tab',
  );
  expect(problem({ submit: "hyper+s" })).toContain(
    'unknown modifier "hyper"; modifiers are ctrl, alt and shift',
  );
  expect(problem({ submit: "ctrl + s" })).toContain('"ctrl + s" has spaces in it; write keys like "ctrl+s"');
  expect(problem({ submit: '"ctrl+s"' })).toContain("has quotes in it");
  expect(problem({ submit: "ctrl+s", complete: "ctrl+s" })).toContain(
    "ctrl+s is bound to both submit and complete; give one of them another key",
  );
  expect(problem({ submit: "alt+enter" })).toContain(
    "alt+enter is bound to both submit and newline; give one of them another key (the other is a default: list it to move it)",
  );
  expect(problem({ submit: "x" })).toContain('"x" is a character you type');
  for (const m of [problem({ submit: 5 }), problem({ submit: "ctrl+banana" })])
    expect(m.split("\n")).toHaveLength(1);
  expect(problem({ submit: ["ctrl+s", "enter"], newline: [], "approve-yes": "ctrl+y" })).toBe("");
});

const k = (name: Key["name"], mods: Partial<Key> = {}): Key => ({
  type: "key",
  name,
  ctrl: false,
  alt: false,
  shift: false,
  ...mods,
});

test("a rebound key becomes its action's default key; a moved default key does nothing; no file: nothing changes", () => {
  const none = new KeyMap(undefined);
  expect(none.translate(k("enter"), false)).toEqual([k("enter")]);
  const map = new KeyMap(parseWith(FILE, KeybindingsFile, { submit: "ctrl+s", "approve-yes": "ctrl+y" }));
  expect(map.translate(k("char", { ch: "s", ctrl: true }), false)).toEqual([k("enter")]);
  expect(map.translate(k("enter"), false)).toEqual([]);
  expect(map.translate(k("enter", { shift: true }), false)).toEqual([k("enter", { shift: true })]);
  // The answer keys apply only at a question, where they replace the line with the answer and send it.
  expect(map.translate(k("char", { ch: "y" }), false)).toEqual([k("char", { ch: "y" })]);
  expect(map.translate(k("char", { ch: "y" }), true)).toEqual([]);
  expect(
    map.translate(k("char", { ch: "y", ctrl: true }), true).map((e) => (e.type === "key" ? e.name : "")),
  ).toEqual(["char", "char", "char", "enter"]);
  expect(map.lines().find(([a]) => a === "submit")?.[1]).toBe(
    "ctrl+s — send the message (also chooses in a list) (keybindings.json)",
  );
  // The console's own actions: the approval mode's cycle and the last reasoning, rebound.
  const more = new KeyMap(
    parseWith(FILE, KeybindingsFile, { "switch-approval-mode": "ctrl+t", "expand-reasoning": "alt+r" }),
  );
  expect(more.translate(k("char", { ch: "t", ctrl: true }), false)).toEqual([k("tab", { shift: true })]);
  expect(more.translate(k("char", { ch: "r", alt: true }), false)).toEqual([
    k("char", { ch: "o", ctrl: true }),
  ]);
  expect(more.translate(k("tab", { shift: true }), false)).toEqual([]);
});
