// What each key does to the line editor. Returns what the console must do beyond editing: submit the
// text, recall history, complete, search, interrupt, exit.
import type { LineEditor } from "./editor.ts";
import type { InputEvent, Key } from "./keys.ts";

export type EditorAction =
  | "changed"
  | "submit"
  | "history-prev"
  | "history-next"
  | "complete"
  /** Shift+Tab: the next approval mode */
  | "mode"
  /** Ctrl-O: show the last reasoning whole */
  | "expand"
  | "search"
  | "interrupt"
  | "eof"
  | "escape"
  | "redraw"
  /** Ctrl-G: the draft in the user's editor */
  | "editor"
  /** Ctrl-F: search the transcript */
  | "find"
  | "ignored";

function ctrlKey(ed: LineEditor, k: Key): EditorAction {
  switch (k.ch) {
    case "a":
      ed.home();
      return "changed";
    case "e":
      ed.end();
      return "changed";
    case "b":
      ed.left();
      return "changed";
    case "f":
      return "find";
    case "h":
      ed.backspace();
      return "changed";
    case "k":
      ed.killToEnd();
      return "changed";
    case "u":
      ed.killToStart();
      return "changed";
    case "w":
      ed.killWordBack();
      return "changed";
    case "y":
      ed.yank();
      return "changed";
    case "p":
      return ed.up() ? "changed" : "history-prev";
    case "n":
      return ed.down() ? "changed" : "history-next";
    case "r":
      return "search";
    case "g":
      return "editor";
    case "l":
      return "redraw";
    case "o":
      return "expand";
    case "j":
      ed.newline();
      return "changed";
    case "c":
      return "interrupt";
    case "d":
      if (ed.isEmpty) return "eof";
      ed.deleteForward();
      return "changed";
    default:
      return "ignored";
  }
}

function altKey(ed: LineEditor, k: Key): EditorAction {
  switch (k.ch) {
    case "b":
      ed.wordLeft();
      return "changed";
    case "f":
      ed.wordRight();
      return "changed";
    case "d":
      ed.killWordForward();
      return "changed";
    default:
      return "ignored";
  }
}

function enter(ed: LineEditor, k: Key): EditorAction {
  if (k.shift || k.alt || k.ctrl) {
    ed.newline();
    return "changed";
  }
  // `\` then Enter: a newline, for terminals that cannot send Shift+Enter.
  if (ed.cursor > 0 && ed.text[ed.cursor - 1] === "\\") {
    ed.backspace();
    ed.newline();
    return "changed";
  }
  return "submit";
}

export function applyInput(ed: LineEditor, ev: InputEvent): EditorAction {
  if (ev.type === "paste") {
    ed.paste(ev.text);
    return "changed";
  }
  const k = ev;
  const word = k.ctrl || k.alt;
  switch (k.name) {
    case "char":
      if (k.ctrl) return ctrlKey(ed, k);
      if (k.alt) return altKey(ed, k);
      ed.insert(k.ch ?? "");
      return "changed";
    case "enter":
      return enter(ed, k);
    case "tab":
      return k.shift ? "mode" : "complete";
    case "backspace":
      if (word) ed.killWordBack();
      else ed.backspace();
      return "changed";
    case "delete":
      if (word) ed.killWordForward();
      else ed.deleteForward();
      return "changed";
    case "left":
      if (word) ed.wordLeft();
      else ed.left();
      return "changed";
    case "right":
      if (word) ed.wordRight();
      else ed.right();
      return "changed";
    case "home":
      ed.home();
      return "changed";
    case "end":
      ed.end();
      return "changed";
    case "up":
      return ed.up() ? "changed" : "history-prev";
    case "down":
      return ed.down() ? "changed" : "history-next";
    case "escape":
      return "escape";
    default:
      return "ignored";
  }
}
