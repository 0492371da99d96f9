// The console's input prompt: the line editor with history, reverse search, completion and the approval
// question, as a live-region component (render(width) / cursor()) that the Screen draws. Keys come in
// decoded (keys.ts); what the console must act on goes out through PromptHooks.
import type { ApprovalAnswer, ApprovalRequest } from "../../agent/agent-session.ts";
import { NOT_AN_ANSWER } from "../approval-question.ts";
import type { PromptHooks } from "../ports.ts";
import { ApprovalPrompt, MESSAGE_QUEUED } from "./approval-prompt.ts";
import { applyInput } from "./bindings.ts";
import { commonPrefix, complete } from "./complete.ts";
import { LineEditor } from "./editor.ts";
import { HistoryCursor, type InputHistory } from "./history.ts";
import type { InputEvent } from "./keys.ts";
import { ghostText, type Menu, type MenuRow, type MenuSource, menuFor, menuLines } from "./menu.ts";
import { Picker, type PickerText, type PickRequest } from "./picker.ts";

/** How the prompt measures and cleans text (the terminal module's functions). */
export interface PromptText extends PickerText {
  charWidth(cp: number): number;
  /** untrusted text made inert for one line */
  clean(s: string): string;
  dim(s: string): string;
  yellow(s: string): string;
  /** the highlighted answer of an approval */
  mark(s: string): string;
}

export const PROMPT = "› ";

interface Approval {
  prompt: ApprovalPrompt;
  resolve(a: ApprovalAnswer): void;
}

interface Search {
  query: string;
  /** index of the shown match in the history, if any */
  at: number | undefined;
  draft: string;
}

export class PromptController {
  readonly editor = new LineEditor();
  private readonly cursorInHistory: HistoryCursor;
  private approval: Approval | undefined;
  private search: Search | undefined;
  private picking: { picker: Picker; resolve(index: number | undefined): void; draft: string } | undefined;
  /** one dim line under the input (a hint, completion candidates); cleared by the next key */
  hint = "";
  /** the line cursor() refers to */
  private caret = { row: 0, col: 0 };
  /** the completion menu open under the input, and its marked row */
  private menu: { menu: Menu; at: number } | undefined;
  /** the text the menu was closed on with Esc: it stays closed until the text changes */
  private menuClosedOn: string | undefined;

  constructor(
    private readonly hooks: PromptHooks,
    private readonly history: InputHistory,
    private readonly text: PromptText,
    private readonly completion: {
      commands: () => string[];
      paths: (partial: string) => string[];
      /** where the menu that opens as you type takes its rows (no menu without it) */
      menu?: MenuSource;
    },
  ) {
    this.cursorInHistory = new HistoryCursor(history);
  }

  get asking(): boolean {
    return this.approval !== undefined;
  }

  /**
   * Show the approval question (with the proposed change, styled, inside it) and wait for the answer;
   * the draft is kept aside meanwhile.
   */
  ask(req: ApprovalRequest, proposal: readonly string[] = []): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      this.approval?.resolve({ kind: "no" });
      this.approval = { prompt: new ApprovalPrompt(req, proposal, this.editor.submit()), resolve };
      this.hint = "";
      this.hooks.changed();
    });
  }

  /**
   * Show a list in place of the input line and wait for a row (its index) or undefined (Esc, or the
   * console closing); the draft is kept aside meanwhile.
   */
  pick(req: PickRequest): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.picking?.resolve(undefined);
      this.picking = { picker: new Picker(req), resolve, draft: this.editor.submit() };
      this.hint = "";
      this.hooks.changed();
    });
  }

  private endPick(index: number | undefined): void {
    const p = this.picking;
    if (!p) return;
    this.picking = undefined;
    this.editor.set(p.draft);
    p.resolve(index);
    this.hooks.changed();
  }

  /** Answer a pending question from outside (input closed, turn cancelled). */
  settle(answer: ApprovalAnswer): void {
    this.endPick(undefined);
    const a = this.approval;
    if (!a) return;
    this.approval = undefined;
    this.editor.set(a.prompt.draft);
    a.resolve(answer);
    this.hooks.changed();
  }

  handle(ev: InputEvent): void {
    this.hint = "";
    if (this.picking) {
      const out = this.picking.picker.handle(ev);
      if (out) this.endPick(out.kind === "chosen" ? out.index : undefined);
    } else if (this.search) this.searchKey(ev);
    else if (this.approval) this.approvalKey(ev);
    else this.editKey(ev);
    this.hooks.changed();
  }

  /** A key while the menu is open: true when the menu took it. */
  private menuKey(ev: InputEvent): boolean {
    const m = this.menu;
    if (!m || ev.type !== "key" || ev.ctrl || ev.alt) return false;
    const n = m.menu.rows.length;
    if (ev.name === "up" || ev.name === "down") {
      m.at = (m.at + (ev.name === "up" ? n - 1 : 1)) % n;
      return true;
    }
    if (ev.name === "escape") {
      this.menu = undefined;
      this.menuClosedOn = this.editor.text;
      return true;
    }
    const acceptsGhost = ev.name === "right" && !ev.shift && this.ghost() !== undefined;
    if ((ev.name === "tab" && !ev.shift) || (ev.name === "enter" && !ev.shift) || acceptsGhost) {
      const row = m.menu.rows[m.at] as MenuRow;
      const ed = this.editor;
      // Enter on a path typed out already sends the message: there is nothing left to complete.
      if (
        ev.name === "enter" &&
        m.menu.kind === "path" &&
        ed.text.slice(m.menu.from, m.menu.to) === row.value
      ) {
        this.menu = undefined;
        return false;
      }
      const dir = row.value.endsWith("/");
      const tail = dir ? "" : " ";
      const rest = ed.text.slice(m.menu.to).replace(/^ /, "");
      ed.text = ed.text.slice(0, m.menu.from) + row.value + tail + rest;
      ed.cursor = m.menu.from + row.value.length + tail.length;
      this.menu = undefined;
      // Enter on a command runs it; on a path it only completes (the message goes on).
      if (ev.name === "enter" && m.menu.kind === "command") {
        this.editKey({ type: "key", name: "enter", ctrl: false, alt: false, shift: false });
        return true;
      }
      this.refreshMenu();
      return true;
    }
    return false;
  }

  /** The rest of the marked row, shown dim after the caret (undefined: none to show). */
  private ghost(): string | undefined {
    const m = this.menu;
    return m ? ghostText(m.menu, m.at, this.editor.text, this.editor.cursor) : undefined;
  }

  /** The menu for the text as it is now (none once closed with Esc, until the text changes). */
  private refreshMenu(): void {
    const src = this.completion.menu;
    const ed = this.editor;
    if (!src || this.approval || this.search || this.picking) {
      this.menu = undefined;
      return;
    }
    if (this.menuClosedOn !== undefined && this.menuClosedOn === ed.text) return;
    this.menuClosedOn = undefined;
    const menu = menuFor(ed.text, ed.cursor, src);
    if (!menu) {
      this.menu = undefined;
      return;
    }
    const keep = this.menu?.menu.rows[this.menu.at]?.value;
    const at = Math.max(0, keep === undefined ? 0 : menu.rows.findIndex((r) => r.value === keep));
    this.menu = { menu, at };
  }

  private editKey(ev: InputEvent): void {
    if (this.menuKey(ev)) return;
    const before = `${this.editor.cursor}:${this.editor.text}`;
    this.editAction(ev);
    if (`${this.editor.cursor}:${this.editor.text}` !== before) this.refreshMenu();
    else if (this.editor.isEmpty) this.menu = undefined;
  }

  private editAction(ev: InputEvent): void {
    const action = applyInput(this.editor, ev);
    switch (action) {
      case "submit": {
        const text = this.editor.submit();
        if (text.trim() === "") return;
        this.history.add(text);
        this.cursorInHistory.reset();
        this.hooks.submit(text);
        return;
      }
      case "interrupt":
        // A draft is cleared first: Ctrl-C never throws away more than the line being typed.
        if (!this.editor.isEmpty) {
          this.editor.clear();
          this.cursorInHistory.reset();
        } else this.hooks.interrupt();
        return;
      case "eof":
        this.hooks.eof();
        return;
      case "escape":
        this.hooks.escape();
        return;
      case "mode":
        this.hooks.cycleMode();
        return;
      case "expand":
        this.hooks.expand();
        return;
      case "history-prev": {
        const e = this.cursorInHistory.prev(this.editor.text);
        if (e !== undefined) this.editor.set(e);
        return;
      }
      case "history-next": {
        const e = this.cursorInHistory.next();
        if (e !== undefined) this.editor.set(e);
        return;
      }
      case "search":
        this.search = { query: "", at: undefined, draft: this.editor.text };
        return;
      case "editor":
        this.hooks.editor?.();
        return;
      case "find":
        this.hooks.find?.();
        return;
      case "complete":
        this.complete();
        return;
      default:
        return;
    }
  }

  private complete(): void {
    const ed = this.editor;
    const c = complete(ed.text, ed.cursor, {
      commands: this.completion.commands(),
      paths: this.completion.paths,
    });
    if (!c || c.candidates.length === 0) return;
    const only = c.candidates.length === 1;
    const insert = only ? (c.candidates[0] as string) : commonPrefix(c.candidates);
    const typed = ed.text.slice(c.from, ed.cursor);
    if (insert.length > typed.length || only) {
      const tail = only && !insert.endsWith("/") ? " " : "";
      const rest = ed.text.slice(c.to);
      ed.text = ed.text.slice(0, c.from) + insert + tail + rest;
      ed.cursor = c.from + insert.length + tail.length;
    }
    if (!only) this.hint = c.candidates.slice(0, 12).join("  ") + (c.candidates.length > 12 ? "  …" : "");
  }

  private searchKey(ev: InputEvent): void {
    const s = this.search as Search;
    const find = (from?: number) => {
      s.at = s.query === "" ? undefined : this.history.search(s.query, from);
    };
    if (ev.type === "paste") {
      s.query += ev.text.split("\n")[0] ?? "";
      find();
      return;
    }
    if (ev.name === "char" && !ev.ctrl && !ev.alt) {
      s.query += ev.ch ?? "";
      find();
      return;
    }
    if (ev.name === "backspace") {
      s.query = Array.from(s.query).slice(0, -1).join("");
      find();
      return;
    }
    if (ev.ctrl && ev.ch === "r") {
      const older = s.at !== undefined ? this.history.search(s.query, s.at) : undefined;
      if (older !== undefined) s.at = older;
      return;
    }
    this.search = undefined;
    const cancel = ev.name === "escape" || (ev.ctrl && (ev.ch === "g" || ev.ch === "c"));
    if (cancel || s.at === undefined) {
      this.editor.set(s.draft);
      return;
    }
    // Any other key takes the match into the editor; Enter does not send it yet.
    this.editor.set(this.history.entries[s.at] as string);
    if (ev.name !== "enter") this.editKey(ev);
  }

  private approvalKey(ev: InputEvent): void {
    const a = this.approval as Approval;
    if (ev.type === "key" && ev.name === "tab" && ev.shift && this.editor.isEmpty && !a.prompt.typing) {
      this.hooks.cycleMode();
      return;
    }
    const step = a.prompt.handle(ev, this.editor);
    if (!step) return;
    if (step.kind === "answer") this.settle(step.answer);
    else if (step.kind === "hint") this.hint = step.text;
    else {
      this.hooks.notAnswer(step.text);
      this.hint = step.asked ? MESSAGE_QUEUED : NOT_AN_ANSWER;
    }
  }

  /** The question shown above the input while an approval waits, and its input line's prompt. */
  private question(width: number): { head: string[]; prompt: string } | undefined {
    return this.approval?.prompt.lines(width, this.text);
  }

  private promptText(): string {
    // While searching, the match is the line's content (see render).
    if (this.search) return `(search) '${this.text.clean(this.search.query)}': `;
    return PROMPT;
  }

  /** Hard-wrap `s` into rows of at most `width` columns; returns rows and the row/col where `at` lands. */
  private layout(s: string, at: number, width: number): { rows: string[]; row: number; col: number } {
    const rows: string[] = [""];
    let w = 0;
    let row = 0;
    let col = 0;
    let i = 0;
    for (const ch of s) {
      if (i === at) {
        row = rows.length - 1;
        col = w;
      }
      i += ch.length;
      if (ch === "\n") {
        rows.push("  ");
        w = 2;
        continue;
      }
      const cw = this.text.charWidth(ch.codePointAt(0) ?? 0);
      if (w + cw > width) {
        rows.push("");
        w = 0;
      }
      rows[rows.length - 1] += ch;
      w += cw;
    }
    if (i <= at) {
      row = rows.length - 1;
      col = w;
    }
    if (col >= width) {
      rows.push("");
      row = rows.length - 1;
      col = 0;
    }
    return { rows, row, col };
  }

  render(width: number): string[] {
    if (this.picking) {
      const lines = this.picking.picker.render(width, this.text);
      // The caret rests after the key line's filter, out of the way of the rows.
      this.caret = { row: lines.length - 1, col: Math.min(width - 1, this.text.width(lines.at(-1) ?? "")) };
      return lines;
    }
    const q = this.question(width);
    const head = q?.head ?? [];
    const prompt = q?.prompt ?? this.promptText();
    let body: string;
    let at: number;
    if (this.search) {
      const s = this.search;
      body = s.at !== undefined ? (this.history.entries[s.at] as string) : "";
      at = prompt.length + body.length;
    } else {
      body = this.editor.text;
      at = prompt.length + this.editor.cursor;
    }
    // Cleaned per character so the caret offset still matches (a control character becomes visible text).
    const cleanBody = Array.from(body)
      .map((ch) => (ch === "\n" ? ch : this.text.clean(ch)))
      .join("");
    const before = Array.from(body.slice(0, at - prompt.length))
      .map((ch) => (ch === "\n" ? ch : this.text.clean(ch)))
      .join("");
    const { rows, row, col } = this.layout(prompt + cleanBody, prompt.length + before.length, width);
    const hint = this.hint ? [this.text.dim(this.hint.slice(0, Math.max(0, width)))] : [];
    this.caret = { row: head.length + row, col };
    const showMenu = this.menu && !q && !this.search;
    const ghost = showMenu ? this.ghost() : undefined;
    // On the caret's row only, cut to the room left: ghost text never wraps the line.
    if (ghost && row === rows.length - 1) {
      const room = width - col - 1;
      const fitted = room > 0 ? this.text.fit(this.text.clean(ghost), room) : "";
      if (fitted) rows[row] += this.text.dim(fitted);
    }
    const menu = showMenu && this.menu ? menuLines(this.menu.menu, this.menu.at, width, this.text) : [];
    return [...head, ...rows, ...menu, ...hint];
  }

  cursor(): { row: number; col: number } {
    return this.caret;
  }
}
